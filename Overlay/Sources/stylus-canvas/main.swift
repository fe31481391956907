// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

func parseOptions(_ arguments: [String]) -> Options {
    switch Options.parse(arguments) {
    case .run(let options): return options
    case .help:
        print(Options.usage)
        exit(0)
    case .version:
        print(StylusVersion.current)
        exit(0)
    case .failure(let message):
        printError("stylus-canvas: \(message)\n\(Options.usage)\n")
        exit(64)
    }
}

// The daemon's PNG export: drawn and written before any display or the socket is opened.
if CommandLine.arguments.count == 5 || (CommandLine.arguments.count == 7 && CommandLine.arguments[5] == "--background"),
   CommandLine.arguments[1] == "--render-png", CommandLine.arguments[3] == "--size" {
    exit(MainActor.assumeIsolated {
        RenderPNG.run(path: CommandLine.arguments[2], size: CommandLine.arguments[4], background: CommandLine.arguments.dropFirst(6).first)
    })
}

if CommandLine.arguments.count >= 3, CommandLine.arguments.count <= 4, CommandLine.arguments[1] == "--render-bench" {
    exit(MainActor.assumeIsolated { RenderBench.run(size: CommandLine.arguments[2], rounds: CommandLine.arguments.dropFirst(3).first) })
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
let link: DaemonLink
do {
    link = try DaemonLink(socket: options.socket)
} catch {
    printError("stylus-canvas: \(error.message)\n")
    exit(69)
}

// One overlay per daemon: the user unit and the autostart entry may both start
// one (GNOME on X11 runs both). The lock lives beside the daemon's socket.
let lockPath = link.path + ".canvas-lock"
let lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
if lockFD >= 0, flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
    printError("stylus-canvas: another stylus-canvas already follows \(link.path); exiting")
    exit(0)
}

/// Where the canvas can be see-through: on GNOME the Shell extension's (this
/// program then has nothing to do, or says how to enable it); a layer surface
/// where the Wayland compositor offers wlr-layer-shell; else an xdg toplevel,
/// maximized (a fullscreen one is opaque on weston); on X11 an ARGB window of
/// its own through xcb. Said once on standard error.
@MainActor
func chooseBackend() -> CanvasBackend {
    let gdkBackend = getenv("GDK_BACKEND").map { String(cString: $0) } ?? ""
    let onWayland = getenv("WAYLAND_DISPLAY") != nil && !gdkBackend.hasPrefix("x11")
    let gnome = GnomeExtension.state()
    if gnome == .enabled {
        // On X11 too: two canvases would each draw the ink.
        printError("stylus-canvas: GNOME Shell's extension \(GnomeExtension.uuid)\(GnomeExtension.loadedVariant) draws the canvas in this session; stylus-canvas has nothing to do\n")
        exit(0)
    }
    if onWayland, let wayland = WaylandBackend() {
        if wayland.layerShell != nil, wayland.compositor != nil, wayland.shm != nil {
            printError("stylus-canvas: the canvas is a layer surface on the overlay layer of each output it covers (wlr-layer-shell v\(wayland.layerShellVersion)): see-through, above fullscreen windows\n")
            return wayland
        }
        if case .notRunning(let reason) = gnome {
            wayland.disconnect()
            let missing = MissingBackend(reason: reason)
            printError("stylus-canvas: \(missing.whyNoMonitor)\n")
            return missing
        }
        guard wayland.wmBase != nil, wayland.compositor != nil, wayland.shm != nil else {
            printError("stylus-canvas: this Wayland compositor offers neither layer-shell nor xdg-shell: no canvas\n")
            exit(69)
        }
        printError("stylus-canvas: this Wayland compositor offers no layer-shell: the canvas is a maximized see-through window (a fullscreen one would hide the desktop); windows raised above it cover its ink, and panels stay above it\n")
        return wayland
    }
    guard let x11 = X11Backend() else {
        printError("stylus-canvas: cannot open a display (neither DISPLAY nor WAYLAND_DISPLAY works)\n")
        exit(69)
    }
    return x11
}

let loop = g_main_loop_new(nil, 0)
for signal in [SIGINT, SIGTERM] {
    g_unix_signal_add(signal, { data in
        g_main_loop_quit(OpaquePointer(data))
        return 0
    }, UnsafeMutableRawPointer(loop))
}

MainActor.assumeIsolated {
    let backend = chooseBackend()
    let canvas = CanvasOverlay(options: options, link: link, backend: backend)
    if let wayland = backend as? WaylandBackend {
        wayland.owner = canvas
        wayland.start()
    } else if let x11 = backend as? X11Backend {
        x11.owner = canvas
        x11.start()
    }
    canvas.log("backend \(backend.name)")
    canvas.log("following \(link.path)")
    link.start({ update in
        MainInbox.shared.post { canvas.handle(update) }
    }, share: { ask in
        MainInbox.shared.post { canvas.share(ask) }
    }, onEnd: { reason in
        MainInbox.shared.post {
            printError("stylus-canvas: \(reason ?? "the subscription ended")\n")
            g_main_loop_quit(loop)
        }
    })
    g_main_loop_run(loop)
    link.stop()
}
