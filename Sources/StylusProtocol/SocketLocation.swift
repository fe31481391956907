// SPDX-License-Identifier: MIT
/// Where the daemon listens and clients connect: `--socket`, else
/// `$STYLUSD_SOCKET`, else `$XDG_RUNTIME_DIR/stylusd/stylusd.sock`. Never a
/// shared directory such as /tmp.
public enum SocketLocation {
    public static func resolve(explicit: String?, environment: [String: String]) -> Result<String, SocketLocationError> {
        if let explicit, !explicit.isEmpty { return .success(explicit) }
        if let fromEnvironment = environment["STYLUSD_SOCKET"], !fromEnvironment.isEmpty { return .success(fromEnvironment) }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else {
            return .failure(SocketLocationError())
        }
        return .success("\(runtime)/stylusd/stylusd.sock")
    }
}

public struct SocketLocationError: Error, Equatable, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String {
        "XDG_RUNTIME_DIR is not set (it is, in a normal login session); pass --socket PATH or set STYLUSD_SOCKET"
    }
}
