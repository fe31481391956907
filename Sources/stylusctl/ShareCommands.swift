// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusProtocol

/// `stylusctl snapshot [FILE] [--monitor NAME]`: the running canvas writes
/// the screen as the user sees it, with the ink, to a PNG.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.snapshot.rawValue, abstract: CommandName.snapshot.summary,
        discussion: """
            The canvas must be open: the canvas program (stylus-canvas) takes the picture, at the monitor's own \
            pixels, without its palette, hover rings or laser. Without FILE the PNG goes to the export folder \
            ([canvas] export_dir) as stylusd-snapshot-DATE.png. Where the desktop offers no capture (weston, cage) \
            the picture holds the ink only, and the result says so.
            """)
    @Argument(help: "The PNG to write.", completion: .file(extensions: ["png"])) var file: String?
    @Option(help: "The monitor to take (its connector name, e.g. HDMI-1); by default the canvas's first.") var monitor: String?
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func validate() throws {
        if let file, !file.lowercased().hasSuffix(".png") { throw ValidationError("a snapshot is a PNG: name a file ending in .png, not \"\(file)\"") }
    }

    func run() throws {
        let path = file.map(absolutePath)
        try client { () throws(StylusClientError) in
            let response = try socket.connect().send(.snapshot(path: path, monitor: monitor))
            emit(json ? stylusctl.json(try response.raw()) : describeShare(try response.typed(ShareResult.self)))
        }
    }
}

/// `stylusctl copy [--snapshot]`: the drawing (or the screen with it) on the clipboard, held by the canvas.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandName.copy.rawValue, abstract: CommandName.copy.summary,
        discussion: """
            The canvas program holds the picture as image/png until something else is copied or the canvas ends: \
            the drawing as `export` writes its PNG, or with --snapshot what `snapshot` takes (the canvas must be open).
            """)
    @Flag(help: "The screen with the ink instead of the drawing alone.") var snapshot = false
    @OptionGroup var socket: SocketOption
    @Flag(help: "Print the daemon's JSON result.") var json = false

    func run() throws {
        try client { () throws(StylusClientError) in
            let response = try socket.connect().send(.copy(snapshot: snapshot))
            emit(json ? stylusctl.json(try response.raw()) : describeShare(try response.typed(ShareResult.self)))
        }
    }
}

func describeShare(_ r: ShareResult) -> String {
    let picture = "\(r.width)×\(r.height), \(r.scene == "screen" ? "the screen with the ink" : "the ink only")"
    let what = r.path.map { "\($0): PNG \(picture)" } ?? "copied to the clipboard: PNG \(picture)"
    return what + (r.note.map { " (\($0))" } ?? "")
}
