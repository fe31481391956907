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
    static let currentVersion = 1

    struct StrokeColumns: Codable, Equatable {
        var device: UInt32
        var tool: String
        var x: [Float], y: [Float], pressure: [Float], tiltX: [Float], tiltY: [Float]
        var timeUS: [Int64]

        enum CodingKeys: String, CodingKey {
            case device, tool, x, y, pressure, tiltX = "tilt_x", tiltY = "tilt_y", timeUS = "time_us"
        }
    }

    var version: Int
    var canvas: String
    var precisionEnabled: Bool
    var strokes: [StrokeColumns]

    enum CodingKeys: String, CodingKey {
        case version, canvas, precisionEnabled = "precision_enabled", strokes
    }

    init(canvas: Canvas, precisionEnabled: Bool) {
        version = Self.currentVersion
        self.canvas = canvas.state.rawValue
        self.precisionEnabled = precisionEnabled
        strokes = canvas.strokes.map { s in
            StrokeColumns(device: s.device.rawValue, tool: s.tool.rawValue,
                          x: s.points.map(\.x), y: s.points.map(\.y), pressure: s.points.map(\.pressure),
                          tiltX: s.points.map(\.tiltX), tiltY: s.points.map(\.tiltY), timeUS: s.points.map(\.time))
        }
    }

    /// The canvas this describes, or why it cannot be one.
    func restored() throws(StateError) -> (Canvas, Bool) {
        guard version == Self.currentVersion else { throw .invalid("version \(version) is not \(Self.currentVersion)") }
        guard let state = CanvasState(rawValue: canvas) else { throw .invalid("unknown canvas state \"\(canvas)\"") }
        var result: [Stroke] = []
        for (i, s) in strokes.enumerated() {
            guard let tool = ToolType(rawValue: s.tool) else { throw .invalid("stroke \(i): unknown tool \"\(s.tool)\"") }
            let n = s.x.count
            guard n > 0, [s.y.count, s.pressure.count, s.tiltX.count, s.tiltY.count, s.timeUS.count].allSatisfy({ $0 == n }) else {
                throw .invalid("stroke \(i): its point columns differ in length")
            }
            let points = (0..<n).map { k in
                StrokePoint(x: s.x[k], y: s.y[k], pressure: s.pressure[k], tiltX: s.tiltX[k], tiltY: s.tiltY[k], time: s.timeUS[k])
            }
            result.append(Stroke(device: DeviceID(s.device), tool: tool, points: points))
        }
        return (Canvas(state: state, strokes: result), precisionEnabled)
    }
}

enum StateError: Error, CustomStringConvertible {
    case invalid(String)
    case io(String)

    var description: String {
        switch self {
        case .invalid(let m), .io(let m): m
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
