// SPDX-License-Identifier: MIT
import StylusSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("replacing a file atomically")
struct AtomicFileTests {
    static func folder() -> String {
        var template = Array("/tmp/stylus-atomic-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    static func contents(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        while true {
            let c = fgetc(f)
            if c == EOF { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(UInt8(c))
        }
    }

    @Test func theNewBytesReplaceTheOldWithTheModeAskedAndNoTemporaryLeft() throws {
        let dir = Self.folder()
        let path = "\(dir)/config.toml"
        try replaceFileAtomically(path, with: Array("old\n".utf8), temporary: "\(path).tmp", mode: 0o644)
        try replaceFileAtomically(path, with: Array("new\n".utf8), temporary: "\(path).tmp", mode: 0o640)
        #expect(Self.contents(path) == "new\n")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o640)
        #expect(access("\(path).tmp", F_OK) != 0)
    }

    /// calibrate rewrites config.toml with the mode the file had: a group-
    /// or world-writable one stays so, though the usual umask (022) would narrow it.
    @Test func aModeWiderThanTheUmaskAllowsIsKeptAsGiven() throws {
        let dir = Self.folder()
        let path = "\(dir)/config.toml"
        try replaceFileAtomically(path, with: Array("interval_ms = 500\n".utf8), temporary: "\(path).calibrate.tmp", mode: 0o666)
        #expect(Self.contents(path) == "interval_ms = 500\n")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o666)
        #expect(access("\(path).calibrate.tmp", F_OK) != 0)
    }

    @Test func aFailureNamesTheCallAndLeavesTheFileAsItWas() throws {
        let dir = Self.folder()
        let path = "\(dir)/state.json"
        try replaceFileAtomically(path, with: Array("kept".utf8), temporary: "\(path).tmp")
        // The temporary file cannot be made (its folder does not exist): nothing changes.
        #expect {
            try replaceFileAtomically(path, with: Array("lost".utf8), temporary: "\(dir)/missing/\(path).tmp")
        } throws: { error in
            (error as? SystemCallError)?.call == "open"
        }
        #expect(Self.contents(path) == "kept")
        // Renaming over a folder fails after the write: the temporary file goes, the folder stays.
        mkdir("\(dir)/folder", 0o700)
        #expect(throws: SystemCallError.self) {
            try replaceFileAtomically("\(dir)/folder", with: Array("x".utf8), temporary: "\(dir)/folder.tmp")
        }
        #expect(access("\(dir)/folder.tmp", F_OK) != 0)
    }
}
