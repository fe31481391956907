// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

/// On GNOME the canvas belongs to the Shell extension stylus-canvas@stylusd,
/// which draws inside the compositor: mutter offers no layer-shell, and a
/// window of this program would be either black (fullscreen) or an ordinary
/// window that others cover. GNOME Shell says whether the extension runs
/// through its `org.gnome.Shell.Extensions` D-Bus interface.
enum GnomeExtension {
    static let uuid = "stylus-canvas@stylusd"
    static let howToEnable = "gnome-extensions enable \(uuid), then log out and in (GNOME finds a new extension only as it starts)"

    enum State: Equatable {
        /// Not a GNOME session, or GNOME Shell did not answer: the other routes apply.
        case notGnome
        case enabled
        /// Installed or not, it does not run: the reason as GNOME gives it, and what to do.
        case notRunning(String)
    }

    /// The name of the `missing` overlay report: the state() that found the
    /// extension not running sets it (an out-of-date copy has a name of its own).
    @MainActor static var missingReport = "missing"
    /// The variant GNOME loaded, for the line that says the extension draws: " (the variant for GNOME 45-48)".
    @MainActor static var loadedVariant = ""

    @MainActor
    static func state() -> State {
        let desktop = getenv("XDG_CURRENT_DESKTOP").map { String(cString: $0) } ?? ""
        guard desktop.split(separator: ":").contains(where: { $0.uppercased() == "GNOME" }),
              let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return .notGnome }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var arguments = [g_variant_new_string(uuid)]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.gnome.Shell.Extensions", "/org/gnome/Shell/Extensions",
                                                      "org.gnome.Shell.Extensions", "GetExtensionInfo", parameters,
                                                      nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, nil) else { return .notGnome }
        defer { g_variant_unref(reply) }
        let info = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(info) }
        guard let state = g_variant_lookup_value(info, "state", nil) else {
            return .notRunning("it is not installed in GNOME Shell's extensions folder: run `\(selectCommand)` "
                               + "(it copies there the variant this GNOME loads, from the two stylusd installs); then run \(howToEnable)")
        }
        defer { g_variant_unref(state) }
        // Which variant is installed: the metadata.json in the folder GNOME reports.
        var versions: [Int]?
        if let path = g_variant_lookup_value(info, "path", g_variant_type_checked_("s")) {
            versions = shellVersions(inExtensionAt: String(cString: g_variant_get_string(path, nil)))
            g_variant_unref(path)
        }
        let installed = versions.map { " (\(describe(versions: $0)))" } ?? ""
        // GNOME Shell's ExtensionState: 1 enabled, 2 disabled, 3 error, 4 out of date, 6 initialized.
        switch g_variant_is_of_type(state, g_variant_type_checked_("d")) != 0 ? g_variant_get_double(state) : 0 {
        case 1:
            loadedVariant = installed
            return .enabled
        case 3: return .notRunning("it failed to start\(installed) (see `journalctl --user -b | grep \(uuid)`)")
        case 4:
            let (reason, report) = outOfDate(installed: versions, shell: shellVersion(on: bus))
            missingReport = report
            return .notRunning(reason)
        default: return .notRunning("it is installed but not enabled\(installed); run \(howToEnable)")
        }
    }
}

/// Where nothing can show the canvas (GNOME without its extension): the
/// overlay reports `missing` to the daemon, so `stylusctl status` says why
/// the canvas does not appear, and says how to enable the extension each time
/// the canvas opens.
@MainActor
final class MissingBackend: CanvasBackend {
    /// `missing`, or `missing-outdated-…` for a copy made for another GNOME (stylusctl status reads it).
    let name = GnomeExtension.missingReport
    let whyNoMonitor: String

    init(reason: String) {
        whyNoMonitor = "the canvas cannot be shown: on GNOME it is drawn by the GNOME Shell extension \(GnomeExtension.uuid), and \(reason)"
    }

    func monitors() -> [MonitorShape] { [] }
    func makeSurface(owner: CanvasSurfaceOwner, monitor: Int, geometry: InkGeometry) -> CanvasSurface {
        fatalError("MissingBackend has no monitors")
    }
    func flush() {}
}
