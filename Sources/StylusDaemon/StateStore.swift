// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusConfig
import StylusCore
import StylusInput
#if canImport(Glibc)
import Glibc
#endif

/// What survives a restart: the canvas (state and strokes) and whether
/// precision is enabled. Points are stored column by column; each Float is
/// written in its shortest round-trip form, so they come back bit for bit.
struct PersistedState: Codable, Equatable {
    /// 3: a `text` stroke has its words and size (`text`, `text_size`).
    /// 2: every stroke has its style (tool, colour, width) and the file the current style.
    /// 1: strokes have the pen's own tool (`pen`, `eraser`, `brush`, …) and are red pen or eraser.
    static let currentVersion = 3

    struct StrokeColumns: Codable, Equatable {
        var device: UInt32
        /// Version 2: the drawing tool; version 1: the pen's own tool type.
        var tool: String
        var color: String?
        var width: Double?
        /// The name of the pen tool that drew it, where one did.
        var pen: String?
        var x: [Float], y: [Float], pressure: [Float], tiltX: [Float], tiltY: [Float]
        var timeUS: [Int64]
        /// Version 3, a `text` stroke's: its words and size.
        var text: String? = nil
        var textSize: Double? = nil

        enum CodingKeys: String, CodingKey {
            case device, tool, color, width, pen, x, y, pressure, tiltX = "tilt_x", tiltY = "tilt_y", timeUS = "time_us"
            case text, textSize = "text_size"
        }
    }

    struct StyleColumns: Codable, Equatable {
        var tool: String
        var color: String
        var width: Double
    }

    var version: Int
    var canvas: String
    var precisionEnabled: Bool
    var strokes: [StrokeColumns]
    /// The style the next stroke gets (version 2).
    var style: StyleColumns?
    /// The tools seen, most recent first, with their styles; `style` is where a new one starts.
    var pens: [PenColumns]?
    /// The board under the ink, by its name; absent for none (and from a daemon before boards).
    var background: String?

    enum CodingKeys: String, CodingKey {
        case version, canvas, precisionEnabled = "precision_enabled", strokes, style, pens, background
    }

    init(canvas: Canvas, precisionEnabled: Bool) {
        version = Self.currentVersion
        self.canvas = canvas.state.rawValue
        self.precisionEnabled = precisionEnabled
        strokes = canvas.strokes.map { s in
            StrokeColumns(device: s.device.rawValue, tool: s.style.tool.rawValue, color: s.style.color.hex, width: s.style.width, pen: s.pen,
                          x: s.points.map(\.x), y: s.points.map(\.y), pressure: s.points.map(\.pressure),
                          tiltX: s.points.map(\.tiltX), tiltY: s.points.map(\.tiltY), timeUS: s.points.map(\.time),
                          text: s.text?.string, textSize: s.text?.size)
        }
        let base = canvas.pens.base
        style = StyleColumns(tool: base.tool.rawValue, color: base.color.hex, width: base.width)
        pens = Self.pens(of: canvas)
        background = canvas.background == .none ? nil : canvas.background.name
    }

    /// The canvas this describes, or why it cannot be one.
    func restored() throws(StateError) -> (Canvas, Bool) {
        guard version <= Self.currentVersion else { throw .newer(version) }
        guard version >= 1 else { throw .invalid("version \(version) is not one stylusd wrote (1 to \(Self.currentVersion))") }
        guard let state = CanvasState(rawValue: canvas) else { throw .invalid("unknown canvas state \"\(canvas)\"") }
        var result: [Stroke] = []
        for (i, s) in strokes.enumerated() {
            let style: StrokeStyle
            if version == 1 {
                // Written before strokes had styles: the eraser end erased, everything else drew red pen.
                guard let tool = ToolType(rawValue: s.tool) else { throw .invalid("stroke \(i): unknown tool \"\(s.tool)\"") }
                style = .legacy(tool: tool == .eraser ? .eraser : .pen)
            } else {
                style = try Self.style(tool: s.tool, color: s.color, width: s.width, of: "stroke \(i)")
            }
            let n = s.x.count
            guard n > 0, [s.y.count, s.pressure.count, s.tiltX.count, s.tiltY.count, s.timeUS.count].allSatisfy({ $0 == n }) else {
                throw .invalid("stroke \(i): its point columns differ in length")
            }
            let points = (0..<n).map { k in
                StrokePoint(x: s.x[k], y: s.y[k], pressure: s.pressure[k], tiltX: s.tiltX[k], tiltY: s.tiltY[k], time: s.timeUS[k])
            }
            result.append(Stroke(device: DeviceID(s.device), style: style, points: points))
            result[result.count - 1].pen = s.pen
            if style.tool == .text {
                guard let text = s.text, StrokeText.problem(with: text) == nil,
                      let size = s.textSize, StrokeText.sizeRange.contains(size) else {
                    throw .invalid("stroke \(i): a text needs its \"text\" (1-\(StrokeText.maxLength) characters) and \"text_size\" (\(StrokeText.sizeRange))")
                }
                result[result.count - 1].text = StrokeText(string: text, size: size)
            }
        }
        var current = StrokeStyle()
        if let style { current = try Self.style(tool: style.tool, color: style.color, width: style.width, of: "the style") }
        var board = CanvasBackground.none
        if let background {
            guard let b = CanvasBackground(name: background) else { throw .invalid("unknown background \"\(background)\" (\(CanvasBackground.spellings))") }
            board = b
        }
        var restored = Canvas(state: state, strokes: result, style: current, background: board)
        restorePens(into: &restored, base: current)
        return (restored, precisionEnabled)
    }

    private static func style(tool: String, color: String?, width: Double?, of what: String) throws(StateError) -> StrokeStyle {
        guard let drawing = DrawingTool(rawValue: tool) else { throw .invalid("\(what): unknown tool \"\(tool)\"") }
        guard let color, let rgb = StrokeColor(hex: color) else { throw .invalid("\(what): colour \(color.map { "\"\($0)\"" } ?? "missing") is not #RRGGBB") }
        guard let width, StrokeStyle.widthRange.contains(width) else {
            throw .invalid("\(what): width \(width.map { "\($0)" } ?? "missing") is not in \(StrokeStyle.widthRange)")
        }
        return StrokeStyle(tool: drawing, color: rgb, width: width)
    }
}

enum StateError: Error, CustomStringConvertible {
    case invalid(String)
    case io(String)
    /// Written by a newer stylusd: not this one's to read, move or overwrite.
    case newer(Int)

    var description: String {
        switch self {
        case .invalid(let m), .io(let m): m
        case .newer(let version): "state version \(version), written by a newer stylusd (this one reads 1 to \(PersistedState.currentVersion))"
        }
    }
}

/// `$XDG_STATE_HOME/stylusd/state.json`, written atomically: a temporary
/// file, fsync, rename over the old one, fsync of the directory. A write
/// that fails leaves the previous file intact.
final class StateStore: Sendable {
    let path: String
    let directory: String

    init(path: String) {
        self.path = path
        directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    enum LoadResult {
        case none
        case loaded(Canvas, precisionEnabled: Bool)
        /// The file was unreadable or corrupt and has been moved to `movedTo`.
        case corrupt(reason: String, movedTo: String?)
        /// A newer stylusd wrote it: left as it is.
        case newer(reason: String)
    }

    func load(now: Int64) -> LoadResult {
        let bytes: [UInt8]
        do {
            // A symlink planted at the state path is never followed: it is moved aside like a corrupt file.
            bytes = try readFile(path, followSymlinks: false)
        } catch {
            if error.errno == .noSuchFileOrDirectory { return .none }
            if error.errno == .tooManySymbolicLinkLevels {
                let aside = "\(path).corrupt-\(now)"
                return .corrupt(reason: "\(path) is a symbolic link; not following it", movedTo: rename(path, aside) == 0 ? aside : nil)
            }
            return .corrupt(reason: "\(error)", movedTo: nil)
        }
        // The version first: a newer stylusd's file may not decode here at all, and is not ours to move.
        struct Version: Decodable { var version: Int }
        if let version = try? JSONDecoder().decode(Version.self, from: Data(bytes)).version, version > PersistedState.currentVersion {
            return .newer(reason: "\(StateError.newer(version))")
        }
        do {
            let state = try JSONDecoder().decode(PersistedState.self, from: Data(bytes))
            let (canvas, precision) = try state.restored()
            return .loaded(canvas, precisionEnabled: precision)
        } catch {
            let aside = "\(path).corrupt-\(now)"
            let moved = rename(path, aside) == 0 ? aside : nil
            return .corrupt(reason: "\(error)", movedTo: moved)
        }
    }

    func save(_ state: PersistedState) throws(StateError) {
        guard let data = state.json() else { throw .io("cannot encode the state: a stroke has a value that is not a finite number") }
        try createDirectory()
        do {
            try replaceFileAtomically(path, with: data, temporary: "\(directory)/.state.json.tmp-\(getpid())")
        } catch {
            throw .io("\(error)")
        }
    }

    /// The state file's folder and those above it, each new one private (0700).
    func createDirectory() throws(StateError) {
        do { try createDirectories(directory) } catch { throw .io("\(error)") }
    }
}

public enum StateLocation {
    /// `$XDG_STATE_HOME/stylusd/state.json`, else `~/.local/state/stylusd/state.json`.
    public static func defaultPath(environment: [String: String]) -> String? {
        Paths.defaultStateFile(environment: environment)
    }
}
