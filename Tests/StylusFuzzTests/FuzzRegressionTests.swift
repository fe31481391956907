// SPDX-License-Identifier: MIT
import Testing
import StylusConfig
import StylusFuzz
import StylusInput
#if canImport(Glibc)
import Glibc
#endif

/// Every input a fuzzer once failed on, run through the same target code.
@Suite("fuzz regressions")
struct FuzzRegressionTests {
    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Fixtures/fuzz"
    }()

    static func files(_ target: FuzzTarget) -> [String] {
        let directory = "\(root)/\(target.rawValue)"
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append("\(directory)/\(name)") }
        }
        return names.sorted()
    }

    @Test(arguments: FuzzTarget.allCases)
    func everySavedFindingPassesItsTarget(target: FuzzTarget) throws {
        if target == .config {
            // The config target parses in a child, which this test runner cannot be.
            ConfigParserClient.defaultExecutable = try #require(ConfigParserClient.executableBesideThisProgram(named: "stylusd"),
                "no executable stylusd beside \(ConfigParserClient.runningProgram() ?? "the test runner"); build it first (swift build --build-tests)")
        }
        for path in Self.files(target) {
            let problems = target.run(try readFile(path))
            #expect(problems.isEmpty, "\(path): \(problems)")
        }
    }

    /// Guards the test above against passing on a directory it could not find.
    @Test func theSavedFindingsAreFound() {
        #expect(Self.files(.config).count >= 2, "no findings under \(Self.root)/config")
    }

    // The targets must notice what they check for, or a fuzzer run proves nothing.
    @Test func theProtocolTargetAcceptsRequestsAndRefusalsAlike() {
        #expect(FuzzTarget.protocol.run(Array("{\"id\":1,\"cmd\":\"status\"}\n[1,2]\n\u{1}\u{2}\nnot json\n".utf8)).isEmpty)
    }

    @Test func theEvemuTargetReplaysARecordingThroughTheEngine() {
        let recording = """
            N: pen
            I: 0003 056a 0001 0001
            B: 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
            B: 03 03 00 00 01 00 00 00 00
            A: 00 0 1000 0 0 10
            A: 01 0 1000 0 0 10
            A: 18 0 2047 0 0 0
            E: 1.000000 0003 0000 10
            E: 1.000000 0000 0000 0
            """
        #expect(FuzzTarget.evemu.run(Array(recording.utf8)).isEmpty)
        #expect(FuzzTarget.evemu.run(Array("E: x\n".utf8)).isEmpty, "a refused recording is not a finding")
    }
}
