// SPDX-License-Identifier: MIT
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// Where `submit` writes: the configured folder, else the user's pictures folder.
extension Exporter {
    /// `[canvas] export_dir` (with `~/` as the home folder), else
    /// `$XDG_PICTURES_DIR/stylusd` (from the environment, or the user's
    /// user-dirs.dirs as xdg-user-dirs writes it), else `~/Pictures/stylusd`.
    static func exportDirectory(configured: String?, environment: [String: String], userDirs: String?) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        func expanded(_ path: String) -> String {
            path.hasPrefix("~/") ? home + path.dropFirst(1) : path
        }
        if let configured { return expanded(configured) }
        if let pictures = environment["XDG_PICTURES_DIR"], pictures.hasPrefix("/") { return pictures + "/stylusd" }
        if let userDirs, let pictures = picturesDirectory(userDirs: userDirs, home: home) { return pictures + "/stylusd" }
        return home + "/Pictures/stylusd"
    }

    /// `XDG_PICTURES_DIR="$HOME/Pictures"` from user-dirs.dirs: `$HOME/` or an
    /// absolute path, as its format allows; a folder equal to home itself means
    /// "no pictures folder" there, so nil.
    static func picturesDirectory(userDirs: String, home: String) -> String? {
        for line in userDirs.split(separator: "\n") {
            let text = line.drop { $0 == " " || $0 == "\t" }
            guard text.hasPrefix("XDG_PICTURES_DIR=") else { continue }
            var value = text.dropFirst("XDG_PICTURES_DIR=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            let path = value.hasPrefix("$HOME/") ? home + value.dropFirst(5) : (value == "$HOME" ? home : String(value))
            guard path.hasPrefix("/"), path != home, path != home + "/" else { return nil }
            return path
        }
        return nil
    }

    /// The user-dirs.dirs file xdg-user-dirs keeps: `$XDG_CONFIG_HOME/user-dirs.dirs`, or in `~/.config`.
    static func readUserDirs(environment: [String: String]) -> String? {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? "") + "/.config")
        guard let bytes = try? readFile(config + "/user-dirs.dirs", limit: 64 * 1024) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A new file in `directory` named by the local date and time,
    /// `stylusd-2026-11-25-193012.png`, with `-2`, `-3`, … when a submit in
    /// the same second already took the name.
    static func submitPath(directory: String, at seconds: time_t, prefix: String = "stylusd", exists: (String) -> Bool = { access($0, F_OK) == 0 }) -> String {
        var t = seconds
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let stamp = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))-\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
        var path = "\(directory)/\(prefix)-\(stamp).png"
        var n = 2
        while exists(path) {
            path = "\(directory)/\(prefix)-\(stamp)-\(n).png"
            n += 1
        }
        return path
    }

    /// The folder `submit` writes into, made if missing; or why it cannot be.
    func prepareSubmitDirectory(configured: String?) -> Result<String, ProtocolError> {
        let folder = Self.exportDirectory(configured: configured, environment: environment, userDirs: Self.readUserDirs(environment: environment))
        do {
            try createDirectories(folder, mode: 0o755)
        } catch {
            return .failure(ProtocolError(code: .failed, message: "cannot make the export folder \(folder) ([canvas] export_dir): \(error.errno.reason)"))
        }
        return .success(folder)
    }
}
