// SPDX-License-Identifier: MIT
import StylusCore
import StylusSystem
import Testing
@testable import StylusDaemon
#if canImport(Glibc)
import Glibc
#endif

@Suite("Saving the state off the event loop")
struct SaveSchedulerTests {
    final class Lines: @unchecked Sendable {
        var lines: [String] = []
    }

    static func canvas(strokes: Int) -> Canvas {
        let points = (0..<50).map { i in
            StrokePoint(x: Float(i) / 50, y: 0.5, pressure: 0.4, tiltX: 0, tiltY: 0, time: 1_000 + Int64(i))
        }
        return Canvas(state: .open, strokes: Array(repeating: Stroke(device: DeviceID(1), tool: .pen, points: points), count: strokes))
    }

    /// Waits for the writer's doorbell as the daemon's poll does.
    static func waitForTheWriter(_ saver: SaveScheduler) -> Bool {
        guard let fd = saver.fd else { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 10_000) == 1 else { return false }
        saver.writerRang()
        return true
    }

    /// A thread's niceness, from /proc (field 19 of its `stat`).
    static func niceness(ofThread thread: pid_t) -> Int? {
        guard let f = fopen("/proc/self/task/\(thread)/stat", "r") else { return nil }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 1024)
        guard fgets(&line, 1024, f) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // After the command's closing parenthesis come the state (field 3) on; nice is field 19.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) : nil
    }

    @Test func theWriterThreadRunsNicerThanTheLoop() throws {
        let dir = StateStoreTests.temporaryDirectory()
        let writer = try StateWriter(store: StateStore(path: "\(dir)/state.json"))
        defer { writer.finish() }
        let loop = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        #expect(Self.niceness(ofThread: writer.threadID()) == min(19, loop + Int(StateWriter.niceness)))
    }

    @Test func aDueSaveIsWrittenByTheWriterThreadWhichRingsTheLoopsDoorbell() throws {
        let dir = StateStoreTests.temporaryDirectory()
        let lines = Lines()
        let saver = SaveScheduler(path: "\(dir)/state.json") { lines.lines.append($0) }
        saver.markDirty()
        let retry = saver.saveIfDue(now: 5_000_000) { StateSnapshot(canvas: Self.canvas(strokes: 3), precisionEnabled: true) }
        #expect(retry == nil)
        #expect(saver.fd != nil)
        #expect(Self.waitForTheWriter(saver))
        guard case .loaded(let loaded, let precision) = StateStore(path: "\(dir)/state.json").load(now: 1) else {
            Issue.record("nothing saved")
            return
        }
        #expect(loaded == Self.canvas(strokes: 3))
        #expect(precision)
        #expect(lines.lines.isEmpty)
    }

    @Test func aStreamOfChangesIsSavedOnceASecondNotOnEveryChange() {
        let dir = StateStoreTests.temporaryDirectory()
        let saver = SaveScheduler(path: "\(dir)/state.json") { _ in }
        saver.markDirty()
        #expect(saver.saveIfDue(now: 1_000_000) { StateSnapshot(canvas: Self.canvas(strokes: 1), precisionEnabled: false) } == nil)
        saver.markDirty()
        #expect(saver.saveIfDue(now: 1_300_000) { StateSnapshot(canvas: Self.canvas(strokes: 2), precisionEnabled: false) } == 2_000_000)
        #expect(Self.waitForTheWriter(saver))
        #expect(saver.saveNow(StateSnapshot(canvas: Self.canvas(strokes: 2), precisionEnabled: false)))
    }

    @Test func aFailedSaveIsReportedOnceAndTriedAgainASecondLater() throws {
        let dir = StateStoreTests.temporaryDirectory()
        // A regular file where a directory should be: fails even for root.
        let blocker = "\(dir)/not-a-directory"
        close(open(blocker, O_CREAT | O_WRONLY, 0o600))
        let lines = Lines()
        let saver = SaveScheduler(path: "\(blocker)/state.json") { lines.lines.append($0) }
        saver.markDirty()
        #expect(saver.saveIfDue(now: 1_000_000) { StateSnapshot(canvas: Self.canvas(strokes: 1), precisionEnabled: false) } == nil)
        #expect(Self.waitForTheWriter(saver))
        #expect(lines.lines.count == 1)
        #expect(lines.lines.first?.contains("cannot save state") == true)
        // Dirty again after the failure: the next try is a second after the last.
        #expect(saver.saveIfDue(now: 1_100_000) { StateSnapshot(canvas: Self.canvas(strokes: 1), precisionEnabled: false) } == 2_000_000)
        #expect(saver.saveIfDue(now: 2_000_000) { StateSnapshot(canvas: Self.canvas(strokes: 1), precisionEnabled: false) } == nil)
        #expect(Self.waitForTheWriter(saver))
        #expect(lines.lines.count == 1, "the same failure is not logged every second")
        #expect(!saver.saveNow(StateSnapshot(canvas: Self.canvas(strokes: 1), precisionEnabled: false)))
    }

    @Test func stoppingWritesTheNewestStateAfterTheWritersSaveInProgress() {
        let dir = StateStoreTests.temporaryDirectory()
        let saver = SaveScheduler(path: "\(dir)/state.json") { _ in }
        saver.markDirty()
        // A big drawing whose save is likely still running when the stop comes.
        _ = saver.saveIfDue(now: 1_000_000) { StateSnapshot(canvas: Self.canvas(strokes: 400), precisionEnabled: false) }
        #expect(saver.saveNow(StateSnapshot(canvas: Self.canvas(strokes: 7), precisionEnabled: true)))
        guard case .loaded(let loaded, let precision) = StateStore(path: "\(dir)/state.json").load(now: 1) else {
            Issue.record("nothing saved")
            return
        }
        #expect(loaded.strokes.count == 7)
        #expect(precision)
        #expect(saver.fd == nil, "the writer thread has ended")
    }
}
