// SPDX-License-Identifier: MIT
import CGlib
#if canImport(Glibc)
import Glibc
#endif

/// Two variants of the extension are installed (GNOME 45 changed the format
/// to ES modules) and a selector copies to GNOME Shell's folder the one the
/// installed GNOME loads. A copy for another GNOME is marked out of date and
/// never loads; these say which copy is there, which one this GNOME needs and
/// how to fix it.
extension GnomeExtension {
    /// The GNOME versions each variant's metadata.json lists (gnome-extension/build.sh), by the variant's name.
    static let variants: [(name: Int, versions: ClosedRange<Int>)] = [(43, 43...44), (45, 45...48)]

    /// The variant whose metadata lists GNOME `major`; nil for a GNOME no variant lists yet.
    static func variant(forShell major: Int) -> Int? {
        variants.first { $0.versions.contains(major) }?.name
    }

    /// "the variant for GNOME 43-44" from the versions a metadata.json lists.
    static func describe(versions: [Int]) -> String {
        guard let low = versions.min(), let high = versions.max() else { return "a copy that lists no GNOME version" }
        return "the variant for GNOME \(low == high ? "\(low)" : "\(low)-\(high)")"
    }

    /// The `shell-version` list of the metadata.json in `folder` (GNOME Shell's
    /// D-Bus answer carries the folder, not the list); nil when unreadable.
    static func shellVersions(inExtensionAt folder: String) -> [Int]? {
        var contents: UnsafeMutablePointer<gchar>?
        guard g_file_get_contents(folder + "/metadata.json", &contents, nil, nil) != 0, let contents else { return nil }
        defer { g_free(contents) }
        let text = String(cString: contents)
        guard let key = text.firstRange(of: "\"shell-version\""),
              let open = text[key.upperBound...].firstIndex(of: "["),
              let close = text[open...].firstIndex(of: "]") else { return nil }
        // Each entry is "43" or "3.38"-style: the major is what GNOME compares first.
        return text[text.index(after: open)..<close].split(separator: ",").compactMap { entry in
            Int(entry.filter { $0.isNumber || $0 == "." }.split(separator: ".").first ?? "")
        }
    }

    /// The selector beside this program (BINDIR/../lib/stylusd), as a command
    /// for root; the package's path when this program runs from elsewhere.
    static var selectCommand: String {
        var path = "/usr/lib/stylusd/select-gnome-extension"
        if let exe = g_file_read_link("/proc/self/exe", nil) {
            defer { g_free(exe) }
            let prefix = String(cString: exe).split(separator: "/").dropLast(2).map { "/" + $0 }.joined()
            let beside = prefix + "/lib/stylusd/select-gnome-extension"
            if g_file_test(beside, G_FILE_TEST_IS_EXECUTABLE) != 0 { path = beside }
        }
        return "sudo " + path
    }

    /// GNOME Shell's own version (its `ShellVersion` property), e.g. "48.7".
    static func shellVersion(on bus: OpaquePointer) -> String? {
        var arguments = [g_variant_new_string("org.gnome.Shell.Extensions"), g_variant_new_string("ShellVersion")]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.gnome.Shell.Extensions", "/org/gnome/Shell/Extensions",
                                                      "org.freedesktop.DBus.Properties", "Get", parameters,
                                                      nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, nil) else { return nil }
        defer { g_variant_unref(reply) }
        let boxed = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(boxed) }
        guard let value = g_variant_get_variant(boxed) else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_is_of_type(value, g_variant_type_checked_("s")) != 0 else { return nil }
        return String(cString: g_variant_get_string(value, nil))
    }

    /// Why an out-of-date copy does not load and what to run, and the name of
    /// the overlay report that carries it to `stylusctl status`
    /// (`missing-outdated-INSTALLED-on-MAJOR`, e.g. missing-outdated-43-on-48).
    static func outOfDate(installed versions: [Int]?, shell: String?) -> (reason: String, report: String) {
        let installed = versions.map(describe(versions:)) ?? "a copy whose metadata.json cannot be read"
        let major = shell.flatMap { Int($0.split(separator: ".").first ?? "") }
        let report = versions?.min().flatMap { low in major.map { "missing-outdated-\(low)-on-\($0)" } } ?? "missing"
        let relogin = "then log out and in"
        if let major, let needed = variant(forShell: major) {
            let range = variants.first { $0.name == needed }!.versions
            return ("GNOME marks it out of date: the installed copy is \(installed), and GNOME Shell \(shell ?? "\(major)") "
                    + "needs \(describe(versions: Array(range))); run `\(selectCommand)` (it installs the one this GNOME loads), \(relogin)", report)
        }
        return ("GNOME marks it out of date: the installed copy is \(installed), and no variant of this stylusd lists GNOME Shell \(shell ?? "this version"); "
                + "`gsettings set org.gnome.shell disable-extension-version-validation true`, \(relogin), makes GNOME try it anyway", report)
    }
}
