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
            #expect(a.device == b.device && a.tool == b.tool)
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

    @Test(arguments: ["{not json", #"{"version":9,"canvas":"open","precision_enabled":false,"strokes":[]}"#,
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
