// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Why the daemon cannot start: a failed system call, or a message for the user.
public enum DaemonError: Error, CustomStringConvertible {
    case system(String, Int32)
    case input(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .input(let message): message
        }
    }
}
