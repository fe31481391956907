// SPDX-License-Identifier: MIT
import CGlib
import CWayland
#if canImport(Glibc)
import Glibc
#endif

/// The clipboard held by the canvas process on wlroots compositors (sway,
/// Hyprland, wayfire): a zwlr_data_control source offering image/png, set as
/// the seat's selection, which needs no keyboard focus (the canvas copies
/// while minimized, from `stylusctl copy`). It stays the clipboard until
/// another program copies (`cancelled`) or the process ends (the compositor
/// drops it then). Elsewhere (weston, KWin without data-control) `hold` says
/// what is missing.
@MainActor
final class WaylandClipboard {
    /// zwlr_data_control_manager_v1, when the compositor offers it.
    var manager: OpaquePointer?
    private var device: OpaquePointer?
    private var source: OpaquePointer?
    private var held: [UInt8] = []

    static let mimeType = "image/png"

    /// Makes `bytes` the clipboard's image/png; nil, or why not.
    func hold(_ bytes: [UInt8], seat: OpaquePointer?) -> String? {
        guard let manager else {
            return "the compositor offers no clipboard to a client without keyboard focus (zwlr_data_control_manager_v1, wlroots' data-control, is missing): use snapshot, or copy on sway, Hyprland or X11"
        }
        guard let seat else { return "the compositor has no seat to hold a clipboard for" }
        if device == nil {
            // A reader of the clipboard that hangs up mid-paste must not end the canvas: write fails with EPIPE instead.
            signal(SIGPIPE, SIG_IGN)
            device = zwlr_data_control_manager_v1_get_data_device(manager, seat)
            zwlr_data_control_device_v1_add_listener(device, Self.deviceListener, Unmanaged.passUnretained(self).toOpaque())
        }
        guard let made = zwlr_data_control_manager_v1_create_data_source(manager) else { return "the compositor made no clipboard source" }
        zwlr_data_control_source_v1_add_listener(made, Self.sourceListener, Unmanaged.passUnretained(self).toOpaque())
        zwlr_data_control_source_v1_offer(made, Self.mimeType)
        zwlr_data_control_device_v1_set_selection(device, made)
        // The source it replaces is the clipboard no more; events still on their way to it are dropped.
        if let source { zwlr_data_control_source_v1_destroy(source) }
        source = made
        held = bytes
        return nil
    }

    // MARK: Listeners

    private static let deviceListener: UnsafeMutablePointer<zwlr_data_control_device_v1_listener> = allocate({
        var l = zwlr_data_control_device_v1_listener()
        // What others copy is never read here: each offer is let go at once (its later events are dropped).
        l.data_offer = { _, _, offer in if let offer { zwlr_data_control_offer_v1_destroy(offer) } }
        l.selection = { _, _, _ in }
        l.primary_selection = { _, _, _ in }
        l.finished = { data, _ in onMain(data, WaylandClipboard.self) { $0.deviceFinished() } }
        return l
    }())

    private static let sourceListener: UnsafeMutablePointer<zwlr_data_control_source_v1_listener> = allocate({
        var l = zwlr_data_control_source_v1_listener()
        l.send = { data, source, mimeType, fd in
            let wanted = mimeType.map { String(cString: $0) } == WaylandClipboard.mimeType
            let source = UInt(bitPattern: source)
            onMain(data, WaylandClipboard.self) { $0.send(fd, from: source, wanted: wanted) }
        }
        l.cancelled = { data, source in
            let source = UInt(bitPattern: source)
            onMain(data, WaylandClipboard.self) { $0.cancelled(source) }
        }
        return l
    }())

    /// A paste asks for the picture: written into its pipe as the pipe drains, from GLib's loop,
    /// not by a thread per paste: a reader that never reads costs an idle watch, and the canvas never waits.
    private func send(_ fd: Int32, from source: UInt, wanted: Bool) {
        if wanted, source == UInt(bitPattern: self.source) { PasteWriter.start(fd: fd, bytes: held) } else { close(fd) }
    }

    private func cancelled(_ source: UInt) {
        guard let current = self.source, source == UInt(bitPattern: current) else { return }
        zwlr_data_control_source_v1_destroy(current)
        self.source = nil
        held = []
    }

    /// The device is no longer valid (its seat went): a later copy asks for a new one.
    private func deviceFinished() {
        if let device { zwlr_data_control_device_v1_destroy(device) }
        device = nil
        if let source { zwlr_data_control_source_v1_destroy(source) }
        source = nil
        held = []
    }
}

/// One paste's copy of the picture on its way into the reader's pipe, made
/// nonblocking and written whenever GLib says it has room; closed when all is
/// written or the reader went away.
private final class PasteWriter {
    private let fd: Int32
    private let bytes: [UInt8]
    private var offset = 0

    private init(fd: Int32, bytes: [UInt8]) {
        self.fd = fd
        self.bytes = bytes
    }

    static func start(fd: Int32, bytes: [UInt8]) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let writer = PasteWriter(fd: fd, bytes: bytes)
        guard writer.drain() else { return }
        g_unix_fd_add(fd, GIOCondition(G_IO_OUT.rawValue | G_IO_ERR.rawValue | G_IO_HUP.rawValue), { _, _, data in
            let writer = Unmanaged<PasteWriter>.fromOpaque(data!)
            if writer.takeUnretainedValue().drain() { return 1 }
            writer.release()
            return 0
        }, Unmanaged.passRetained(writer).toOpaque())
    }

    /// Writes what the pipe takes now; true while there is more to write and the reader is there.
    private func drain() -> Bool {
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0, errno == EAGAIN {
                return true
            } else {
                break   // EPIPE: the reader went away
            }
        }
        close(fd)
        return false
    }
}
