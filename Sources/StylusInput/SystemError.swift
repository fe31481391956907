// SPDX-License-Identifier: MIT
// The system layer is part of what this module offers its users.
@_exported import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

// kept for StylusDaemon and stylus-bench until they call StylusSystem's
// readFile, whose SystemCallError carries the same call, path and errno.
public struct SystemError: Error, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Int32

    public var description: String {
        "\(path): \(operation) failed: \(String(cString: strerror(errno)))"
    }
}

// kept for StylusDaemon and stylus-bench until they call StylusSystem's readFile.
public func readFileBytes(_ path: String, followSymlinks: Bool = true, limit: Int = Int.max) throws(SystemError) -> [UInt8] {
    do {
        return try readFile(path, followSymlinks: followSymlinks, limit: limit)
    } catch {
        throw SystemError(operation: error.call, path: path, errno: error.errno.rawValue)
    }
}
