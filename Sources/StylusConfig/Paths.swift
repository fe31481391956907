// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon's files are when the command line does not say, and
/// what a relative path on its command line means. Pure except for
/// `workingDirectory()`.
public enum Paths {
    /// `path` against `directory` (the working directory at start) when it
    /// is relative: `c.toml` in /home/u is /home/u/c.toml. `.` and empty
    /// components of the relative part go; `..` stays, since a symbolic link
    /// may stand before it. An absolute path is returned as it is.
    public static func absolute(_ path: String, against directory: String) -> String {
        if path.hasPrefix("/") { return path }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return parts.isEmpty ? (base.isEmpty ? "/" : base) : base + "/" + parts.joined(separator: "/")
    }

    /// An XDG base directory (`XDG_CONFIG_HOME`, `XDG_STATE_HOME`, …) from
    /// the environment, or nil when it is unset, empty or relative: the XDG
    /// Base Directory specification says a relative one is invalid and is
    /// to be ignored.
    public static func xdgDirectory(_ variable: String, environment: [String: String]) -> String? {
        absoluteDirectory(environment[variable])
    }

    /// `$XDG_CONFIG_HOME/stylusd/config.toml`, else `$HOME/.config/stylusd/config.toml`.
    public static func defaultConfigFile(environment: [String: String]) -> String? {
        if let config = xdgDirectory("XDG_CONFIG_HOME", environment: environment) { return "\(config)/stylusd/config.toml" }
        if let home = absoluteDirectory(environment["HOME"]) { return "\(home)/.config/stylusd/config.toml" }
        return nil
    }

    /// `$XDG_STATE_HOME/stylusd/state.json`, else `$HOME/.local/state/stylusd/state.json`.
    public static func defaultStateFile(environment: [String: String]) -> String? {
        if let state = xdgDirectory("XDG_STATE_HOME", environment: environment) { return "\(state)/stylusd/state.json" }
        if let home = absoluteDirectory(environment["HOME"]) { return "\(home)/.local/state/stylusd/state.json" }
        return nil
    }

    private static func absoluteDirectory(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        var directory = Substring(value)
        while directory.count > 1, directory.hasSuffix("/") { directory = directory.dropLast() }
        return directory == "/" ? "" : String(directory)
    }

    /// The working directory (getcwd(3)), or the reason there is none.
    public static func workingDirectory() -> Result<String, WorkingDirectoryError> {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return .failure(WorkingDirectoryError(errno: errno)) }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Linux prefixes "(unreachable)" to a directory outside this process's root.
        guard directory.hasPrefix("/") else { return .failure(WorkingDirectoryError(errno: ENOENT)) }
        return .success(directory)
    }

    public struct WorkingDirectoryError: Error, CustomStringConvertible {
        public var errno: Int32
        public var description: String { "the working directory cannot be found (getcwd: \(String(cString: strerror(errno))))" }
    }
}
