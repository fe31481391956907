// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusCore
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `stylusctl export FILE.png|FILE.svg [--width N --height N]`: the daemon
/// writes the file (so it works with no display and no canvas running).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.export.rawValue, abstract: CommandName.export.summary,
        discussion: """
            The format is the file name's: .png (ink on transparent, drawn by the canvas's renderer, stylus-canvas, \
            which must be installed) or .svg (written by stylusd itself). The size is the area the tablet maps to \
            (the monitors the running canvas covers, else 1600 pixels wide at the tablet's proportions) unless \
            --width and --height give one, each \
            \(ExportFormat.sideRange.lowerBound)-\(ExportFormat.sideRange.upperBound). The drawing is not changed.
            """)
    @Argument(help: "The file to write, ending in .png or .svg.", completion: .file(extensions: ["png", "svg"])) var file: String
    // Unconditional: "--width -3" is a size to refuse by name, not a missing value and an unknown option.
    @Option(parsing: .unconditional, help: "The picture's width in pixels (with --height).") var width: Int?
    @Option(parsing: .unconditional, help: "The picture's height in pixels (with --width).") var height: Int?
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        guard ExportFormat(path: file) != nil else {
            throw ValidationError("cannot tell the format of \"\(file)\": name a file ending in .png or .svg")
        }
        guard (width == nil) == (height == nil) else { throw ValidationError("--width and --height go together") }
        for (name, value) in [("--width", width), ("--height", height)] {
            if let value, !ExportFormat.sideRange.contains(value) {
                throw ValidationError("\(name) takes \(ExportFormat.sideRange.lowerBound) to \(ExportFormat.sideRange.upperBound) pixels, not \(value)")
            }
        }
    }

    func run() throws {
        let path = absolutePath(file)
        try client { () throws(StylusClientError) in
            let response = try socket.connect().send(.export(path: path, width: width, height: height))
            emit(json ? stylusctl.json(try response.raw()) : describeExport(try response.typed(ExportResult.self)))
        }
    }
}

/// `stylusctl submit`: keeps the drawing as a PNG in the export folder, then clears and minimizes.
struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.submit.rawValue, abstract: CommandName.submit.summary,
        discussion: """
            The PNG goes to [canvas] export_dir, by default $XDG_PICTURES_DIR/stylusd (~/Pictures/stylusd), \
            named by the local date and time. The canvas event says "result":"submitted" with the file's path; \
            `undo` brings the strokes back. Waits, as toggle does, for the canvas to minimize (--no-wait: not). \
            --scene screen keeps the screen with the ink (as snapshot takes it; the canvas must be open) instead of \
            the drawing ([canvas] submit_scene sets the default); --inline keeps no file: the daemon answers with the \
            PNG (as base64 in png_base64, which --json prints), up to 8 MiB. An empty canvas is refused (nothing to submit) \
            unless a board shows.
            """)
    @Option(help: "ink (the drawing) or screen (the screen with the ink); by default [canvas] submit_scene's.",
            completion: .list(SubmitScene.allCases.map(\.rawValue))) var scene: String?
    @Flag(help: "Keep no file: the answer carries the PNG (print it with --json).") var inline = false
    @OptionGroup var socket: SocketOption
    @OptionGroup var wait: WaitOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        if let scene, SubmitScene(rawValue: scene) == nil {
            throw ValidationError("--scene is ink or screen, not \"\(scene)\"")
        }
    }

    func run() throws {
        let options = SubmitOptions(inline: inline, scene: scene.flatMap(SubmitScene.init(rawValue:)))
        let command: ClientCommand = options == SubmitOptions() ? .submit : .submitWith(options)
        try client { () throws(StylusClientError) in
            let connection = try socket.connect()
            // As the canvas verbs: a submit refused while the canvas opens is sent again once it is open,
            // and the minimize that follows it is waited for (the line after the file's says the state reached).
            let waiter: TransitionWait? = try wait.noWait ? nil : TransitionWait(connection)
            let response = if let waiter { try waiter.send(command) } else { try connection.send(command) }
            emit(json ? stylusctl.json(try response.raw()) : describeExport(try response.typed(ExportResult.self)))
            if let reached = try waiter?.settle(), !json { emit(describeStatus(reached, only: .canvas)) }
        }
    }
}

func describeExport(_ r: ExportResult) -> String {
    "\(r.pngBase64.map { "inline, \($0.utf8.count / 4 * 3) bytes" } ?? r.path): \(r.format.uppercased()) \(r.width)×\(r.height), \(counted(r.strokeCount, "stroke"))\(r.hasContent ? "" : " (no ink: the picture is blank)")"
}

/// The daemon's working folder is not ours: a relative name is made absolute here.
func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return path }
    let cwd = String(cString: buffer)
    return (cwd == "/" ? "" : cwd) + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
}
