// SPDX-License-Identifier: MIT
import Testing
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// readFile sizes its read buffer by the file (a config file of a few
/// hundred bytes no longer costs a zeroed megabyte); what it returns must not change.
@Suite("reading a whole file")
struct ReadFileTests {
    static func file(_ bytes: [UInt8]) -> String {
        var template = Array("/tmp/stylus-readfile-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        precondition(fd >= 0)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return String(cString: template)
    }

    @Test func smallEmptyAndMultiMegabyteFilesComeBackWhole() throws {
        for size in [0, 1, 300, 4096, 4097, (1 << 20) + 12_345, 3 << 20] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
            let path = Self.file(bytes)
            defer { unlink(path) }
            #expect(try readFile(path) == bytes, "\(size) bytes")
        }
    }

    @Test func aFileOverTheLimitIsRefusedAndOneAtTheLimitIsNot() throws {
        let path = Self.file([UInt8](repeating: 7, count: 5000))
        defer { unlink(path) }
        #expect(try readFile(path, limit: 5000).count == 5000)
        #expect(throws: SystemCallError.self) { try readFile(path, limit: 4999) }
        #expect(throws: SystemCallError.self) { try readFile("/dev/zero", limit: 100_000) }
    }
}
