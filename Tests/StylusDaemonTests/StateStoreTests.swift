// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusDaemon
#if canImport(Glibc)
import Glibc
#endif

@Suite("State file")
struct StateStoreTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/stylusd-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    static func awkwardCanvas() -> Canvas {
        // Values whose decimal forms are long, tiny, negative, or exactly representable.
        let xs: [Float] = [0.1, 1 / 3, .leastNonzeroMagnitude, 0.999_999_94, 0, 1, 0.5]
        let points = xs.enumerated().map { i, x in
            StrokePoint(x: x, y: 1 - x, pressure: x / 2, tiltX: -63.5 + Float(i), tiltY: Float(i) * 0.1, time: 1_369_413_645_958_613 + Int64(i))
        }
        return Canvas(state: .open, strokes: [Stroke(device: DeviceID(3), tool: .eraser, points: points),
                                              Stroke(device: DeviceID(1), tool: .pen, points: Array(points.prefix(1)))])
    }

    @Test func theCanvasSurvivesASaveAndLoadBitForBit() throws {
        let dir = Self.temporaryDirectory()
        let store = StateStore(path: "\(dir)/nested/stylusd/state.json")
        let canvas = Self.awkwardCanvas()
        try store.save(PersistedState(canvas: canvas, precisionEnabled: true))
        guard case .loaded(let loaded, let precision) = store.load(now: 1) else {
            Issue.record("not loaded")
            return
        }
        #expect(precision)
        #expect(loaded.state == .open)
        #expect(loaded.strokes.count == 2)
        for (a, b) in zip(loaded.strokes, canvas.strokes) {
            #expect(a.points.map(\.x.bitPattern) == b.points.map(\.x.bitPattern))
            #expect(a.points.map(\.y.bitPattern) == b.points.map(\.y.bitPattern))
            #expect(a.points.map(\.pressure.bitPattern) == b.points.map(\.pressure.bitPattern))
            #expect(a.points.map(\.tiltX.bitPattern) == b.points.map(\.tiltX.bitPattern))
            #expect(a.points.map(\.time) == b.points.map(\.time))
            #expect(a.device == b.device && a.style == b.style)
        }
        var info = stat()
        #expect(stat("\(dir)/nested/stylusd/state.json", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat("\(dir)/nested/stylusd", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test func noFileIsAFreshStart() {
        guard case .none = StateStore(path: "\(Self.temporaryDirectory())/state.json").load(now: 1) else {
            Issue.record("expected none")
            return
        }
    }

    @Test(arguments: ["{not json", #"{"version":0,"canvas":"open","precision_enabled":false,"strokes":[]}"#,
                      #"{"version":1,"canvas":"sideways","precision_enabled":false,"strokes":[]}"#,
                      #"{"version":1,"canvas":"open","precision_enabled":false,"strokes":[{"device":1,"tool":"pen","x":[0.1],"y":[],"pressure":[0],"tilt_x":[0],"tilt_y":[0],"time_us":[1]}]}"#])
    func aCorruptFileIsMovedAsideNotOverwritten(content: String) throws {
        let dir = Self.temporaryDirectory()
        let path = "\(dir)/state.json"
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        _ = content.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        guard case .corrupt(_, let movedTo) = StateStore(path: path).load(now: 42) else {
            Issue.record("accepted a corrupt file")
            return
        }
        #expect(movedTo == "\(path).corrupt-42")
        #expect(access(path, F_OK) != 0, "the corrupt file no longer blocks the name")
        let kept = try readFileBytesForTest("\(path).corrupt-42")
        #expect(String(decoding: kept, as: UTF8.self) == content, "the copy is byte for byte the old file")
    }

    @Test func aFailedSaveKeepsThePreviousFile() throws {
        let dir = Self.temporaryDirectory()
        let store = StateStore(path: "\(dir)/state.json")
        try store.save(PersistedState(canvas: Self.awkwardCanvas(), precisionEnabled: false))
        let before = try readFileBytesForTest("\(dir)/state.json")
        // A directory where the temporary file would go makes the next write fail.
        mkdir("\(dir)/.state.json.tmp-\(getpid())", 0o700)
        #expect(throws: StateError.self) { try store.save(PersistedState(canvas: Canvas(), precisionEnabled: true)) }
        #expect(try readFileBytesForTest("\(dir)/state.json") == before)
    }
}

func readFileBytesForTest(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw StateError.io("open \(path)") }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}

@Suite("State file versions")
struct StateVersionTests {
    /// What stylusd wrote before strokes had styles (state version 1): the pen's own tool per stroke.
    static let versionOne = #"{"canvas":"open","precision_enabled":true,"strokes":[{"device":1,"pressure":[0.5,0.25],"tilt_x":[0,0],"tilt_y":[0,0],"time_us":[1,2],"tool":"pen","x":[0.1,0.2],"y":[0.1,0.2]},{"device":1,"pressure":[0.5,0.5],"tilt_x":[0,0],"tilt_y":[0,0],"time_us":[3,4],"tool":"eraser","x":[0.1,0.2],"y":[0.1,0.2]},{"device":2,"pressure":[1,1],"tilt_x":[0,0],"tilt_y":[0,0],"time_us":[5,6],"tool":"brush","x":[0.3,0.4],"y":[0.3,0.4]}],"version":1}"#

    static func writeFile(_ text: String) -> String {
        let path = "\(StateStoreTests.temporaryDirectory())/state.json"
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        return path
    }

    @Test func aVersionOneFileLoadsUnchangedWithEveryStrokeRedPenOrEraser() throws {
        let path = Self.writeFile(Self.versionOne)
        guard case .loaded(let canvas, let precision) = StateStore(path: path).load(now: 1) else {
            Issue.record("a version 1 state file did not load")
            return
        }
        #expect(precision && canvas.state == .open)
        #expect(canvas.strokes.map(\.style) == [StrokeStyle(), StrokeStyle(tool: .eraser), StrokeStyle()])
        #expect(canvas.strokes.map { $0.points.map(\.pressure) } == [[0.5, 0.25], [0.5, 0.5], [1, 1]])
        #expect(canvas.style == StrokeStyle())
        // Saved again, it is a current-version file that loads to the same canvas.
        let store = StateStore(path: path)
        try store.save(PersistedState(canvas: canvas, precisionEnabled: precision))
        guard case .loaded(let again, _) = store.load(now: 2) else {
            Issue.record("the migrated file did not load")
            return
        }
        #expect(again.strokes == canvas.strokes)
        #expect(String(decoding: try readFileBytesForTest(path), as: UTF8.self).contains(#""version":3"#))
    }

    @Test func stylesAndTheCurrentStyleSurviveARestart() throws {
        let canvas = Canvas(state: .minimized, strokes: [
            Stroke(device: DeviceID(1), style: StrokeStyle(tool: .arrow, color: StrokeColor(hex: "#3465a4")!, width: 2.5),
                   points: [StrokePoint(x: 0.1, y: 0.2, pressure: 0.3, tiltX: 0, tiltY: 0, time: 7)]),
        ], style: StrokeStyle(tool: .highlighter, color: StrokeColor(hex: "#edd400")!, width: 24))
        let path = "\(StateStoreTests.temporaryDirectory())/state.json"
        try StateStore(path: path).save(PersistedState(canvas: canvas, precisionEnabled: false))
        guard case .loaded(let loaded, _) = StateStore(path: path).load(now: 1) else {
            Issue.record("did not load")
            return
        }
        #expect(loaded.strokes == canvas.strokes)
        #expect(loaded.style == canvas.style)
    }

    @Test func aNewerFileIsRefusedAndLeftUntouched() throws {
        let text = #"{"version":4,"canvas":"open","precision_enabled":false,"strokes":[],"layers":{"future":true}}"#
        let path = Self.writeFile(text)
        guard case .newer(let reason) = StateStore(path: path).load(now: 42) else {
            Issue.record("a newer state file was not refused")
            return
        }
        #expect(reason == "state version 4, written by a newer stylusd (this one reads 1 to 3)")
        #expect(String(decoding: try readFileBytesForTest(path), as: UTF8.self) == text)
        #expect(access("\(path).corrupt-42", F_OK) != 0, "not moved aside")
    }

    @Test(arguments: [(#""tool":"brush""#, "stroke 0: unknown tool \"brush\""), (#""color":"red""#, "stroke 0: colour \"red\" is not #RRGGBB"),
                      (#""width":0"#, "stroke 0: width 0.0 is not in 1.0...64.0")])
    func aVersionTwoStrokeWithABadStyleIsCorrupt(field: String, message: String) {
        var stroke = [#""tool":"pen""#, ##""color":"#d61a1c""##, #""width":8"#]
        stroke[stroke.firstIndex { $0.hasPrefix(String(field.prefix(7))) }!] = field
        let text = #"{"canvas":"open","precision_enabled":false,"strokes":[{"device":1,"pressure":[0],"tilt_x":[0],"tilt_y":[0],"time_us":[1],"x":[0],"y":[0],"#
            + stroke.joined(separator: ",") + #"}],"version":2}"#
        guard case .corrupt(let reason, _) = StateStore(path: Self.writeFile(text)).load(now: 1) else {
            Issue.record("accepted \(field)")
            return
        }
        #expect(reason == message)
    }
}

@Suite("State file and planted symlinks")
struct StateSymlinkTests {
    @Test func aSymlinkAtTheStatePathIsNeitherFollowedNorClobbered() throws {
        let dir = StateStoreTests.temporaryDirectory()
        let target = "\(dir)/precious.txt"
        let fd = open(target, O_WRONLY | O_CREAT, 0o600)
        _ = "do not touch".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        symlink(target, "\(dir)/state.json")
        let store = StateStore(path: "\(dir)/state.json")
        guard case .corrupt(let reason, let movedTo) = store.load(now: 7) else {
            Issue.record("the link was followed")
            return
        }
        #expect(reason.contains("symbolic link"))
        #expect(movedTo == "\(dir)/state.json.corrupt-7")
        try store.save(PersistedState(canvas: Canvas(), precisionEnabled: false))
        #expect(String(decoding: try readFileBytesForTest(target), as: UTF8.self) == "do not touch")
        var info = stat()
        #expect(lstat("\(dir)/state.json", &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "a real file replaced the link")
    }
}
