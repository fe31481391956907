// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// `mkdir -p` with `mode` for each folder it makes (0700: like the XDG
/// folders, private); folders that exist are left as they are.
public func createDirectories(_ path: String, mode: mode_t = 0o700) throws(SystemCallError) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/\(part)"
        if mkdir(current, mode) != 0 && errno != EEXIST { throw SystemCallError.last("mkdir", current) }
    }
}
