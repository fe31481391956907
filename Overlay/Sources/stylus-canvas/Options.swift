// SPDX-License-Identifier: MIT
import CanvasModel

struct Options: Equatable {
    var socket: String?
    /// An empty input region whatever the daemon's output: clicks go to the windows under the canvas.
    var clickThrough = false
    var fadeMilliseconds = CanvasSpec.fadeMilliseconds
    /// Which monitors to cover; `auto`: where the tablet maps to.
    var monitor = MonitorRequest.auto
    var verbose = false

    /// What a command line asks for. Pure, so that main.swift alone prints and exits.
    enum Parsed: Equatable {
        case run(Options)
        case help
        case version
        /// Refused: the message goes before the usage, and the exit status is 64.
        case failure(String)
    }

    static func parse(_ arguments: [String]) -> Parsed {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() -> String? { rest.popFirst() }
            switch argument {
            case "--socket":
                guard let v = value() else { return .failure("\(argument) needs a value") }
                options.socket = v
            case "--click-through": options.clickThrough = true
            case "--fade-ms":
                guard let v = value() else { return .failure("\(argument) needs a value") }
                guard let n = Int(v), (0...1000).contains(n) else { return .failure("--fade-ms takes 0-1000") }
                options.fadeMilliseconds = n
            case "--monitor":
                guard let which = value() else { return .failure("\(argument) needs a value") }
                guard !which.isEmpty, !which.hasPrefix("-") else { return .failure("--monitor takes auto, all, a connector's name or a number from 0") }
                options.monitor = MonitorRequest(argument: which)
            case "--render-png": return .failure("--render-png takes PATH --size WIDTHxHEIGHT and optionally --background BOARD, and nothing else, in that order")
            case "--render-bench": return .failure("--render-bench takes WIDTHxHEIGHT and optionally ROUNDS, and nothing else")
            case "--verbose", "-v": options.verbose = true
            case "--help", "-h": return .help
            case "--version": return .version
            default: return .failure("unknown argument \(argument)")
            }
        }
        return .run(options)
    }

    static let usage = """
        usage: stylus-canvas [--socket PATH] [--click-through] [--fade-ms N] [--monitor WHICH] [--verbose]
               stylus-canvas --render-png PATH --size WIDTHxHEIGHT [--background BOARD] < strokes.json
               stylus-canvas --render-bench WIDTHxHEIGHT [ROUNDS] < strokes.json
               stylus-canvas --version | --help

        The canvas overlay of stylusd: a fullscreen, see-through window that opens
        and minimizes with the daemon's canvas and draws its strokes.

          --socket PATH     the daemon's socket (default $STYLUSD_SOCKET, else
                            $XDG_RUNTIME_DIR/stylusd/stylusd.sock)
          --click-through   always let pointer input through to the windows underneath
                            (an empty input region). Without it, the canvas lets it
                            through only while stylusd captures the pen (filter
                            mode with every pen grabbed: status output.captures_pen);
                            otherwise it takes pointer input, so that drawing
                            does not click the apps under it
          --fade-ms N       fade in and out over N ms (default \(CanvasSpec.fadeMilliseconds), 0-1000)
          --monitor WHICH   which monitors the canvas covers: auto (the default:
                            a pen display's own monitor, found by its size in mm;
                            for a tablet that is not a display, every monitor, as
                            the tablet maps to the whole desktop), all, a
                            connector's name (HDMI-1, as xrandr or swaymsg -t
                            get_outputs shows it) or a number (the display's
                            order of monitors, from 0). The choice and its reason
                            are logged on standard error
          --verbose         log what the overlay does on standard error
          --render-png PATH draw the strokes on standard input (the JSON of
                            `stylusctl strokes`) into a transparent PNG of --size
                            with the canvas's renderer, and exit: stylusd's PNG
                            export runs this; no display is needed. With
                            --background (none, white, black, grid, #rrggbb)
                            the strokes are drawn on that board
          --render-bench    time the renderer with the strokes on standard input
                            (a frame, undo, redo, a clear taken back) and check
                            that each redraw equals drawing afresh; no display

        Keys on the open canvas (F1, ? and Escape are the canvas's own; stylusd
        performs the rest, and [canvas.keys] in config.toml rebinds them):
        \(HelpLines.text(CanvasSpec.keys))
        """
}
