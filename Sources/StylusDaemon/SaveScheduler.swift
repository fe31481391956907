// SPDX-License-Identifier: MIT
import StylusCore
import StylusSystem
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// When the canvas is written to the state file: a change after a quiet
/// spell at once, a stream of changes once a second (each save rewrites and
/// fsyncs the whole drawing, so saving on every change let a client
/// toggling thousands of times a second stall everyone else), a failed save
/// again a second later, and everything at a stop.
///
/// The writing itself happens on a thread of its own (`StateWriter`): the
/// encoding of a big drawing and an fsync on a slow disk took a loop turn
/// 50-400 ms in the hardware-in-the-loop guest, and pen events and requests
/// waited for it. The loop hands over a snapshot of the canvas (a copy of
/// a value, shared until the engine next changes it) and learns the result
/// through the writer's doorbell in its poll set.
final class SaveScheduler {
    static let spacing: Int64 = 1_000_000
    private(set) var store: StateStore?
    private var writer: StateWriter?
    private var dirty = false
    private var failing = false
    private var lastSaveAt: Int64?
    private let log: (String) -> Void

    init(path: String?, log: @escaping (String) -> Void) {
        store = path.map(StateStore.init(path:))
        self.log = log
    }

    deinit { writer?.finish() }

    /// The writer's doorbell, to poll for POLLIN; then call `writerRang()`.
    var fd: Int32? { writer?.doorbell.fd }

    /// The saved canvas and precision setting, if there is one to restore.
    func restore() -> (Canvas, Bool)? {
        guard let store else {
            log("no state file (neither XDG_STATE_HOME nor HOME is set): the canvas will not survive a restart")
            return nil
        }
        switch store.load(now: Int64(time(nil))) {
        case .none:
            return nil
        case .loaded(let canvas, let precision):
            log("restored the canvas from \(store.path): \(canvas.state.rawValue), \(counted(canvas.strokes.count, "stroke")), precision \(precision ? "enabled" : "disabled")")
            return (canvas, precision)
        case .corrupt(let reason, let movedTo):
            if let movedTo {
                log("\(store.path) could not be read (\(reason)); moved it to \(movedTo) and started with an empty canvas")
            } else {
                log("\(store.path) could not be read (\(reason)) and could not be moved aside; starting with an empty canvas and not overwriting it")
                self.store = nil
            }
            return nil
        case .newer(let reason):
            log("\(store.path) is \(reason): leaving it untouched; this daemon starts with an empty canvas and does not save it (upgrade stylusd, or give it another --state-file)")
            self.store = nil
            return nil
        }
    }

    func markDirty() { dirty = true }

    /// Hands the state to the writer if the last save is old enough;
    /// otherwise returns when to try again.
    func saveIfDue(now: @autoclosure () -> Int64, _ state: () -> StateSnapshot) -> Int64? {
        guard dirty else { return nil }
        // Read only with a change to save: the loop asks at every turn, a pen frame's too.
        let now = now()
        if let last = lastSaveAt, now - last < Self.spacing { return last + Self.spacing }
        lastSaveAt = now
        dirty = false
        guard let store else { return nil }
        if writer == nil {
            do {
                writer = try StateWriter(store: store)
            } catch {
                // Without a thread the save runs here, in the loop, as it always could.
                log("cannot start the state writer thread (\(error)); saving in the event loop")
                report(StateWriter.write(state(), to: store))
                return dirty ? now + Self.spacing : nil
            }
        }
        writer!.submit(state())
        return nil
    }

    /// The writer finished one or more saves.
    func writerRang() {
        guard let writer else { return }
        writer.doorbell.drain()
        for outcome in writer.takeOutcomes() { report(outcome) }
    }

    /// Saves at once (a stop), after the writer's save in progress, if any;
    /// false when the file keeps an older state.
    func saveNow(_ state: StateSnapshot) -> Bool {
        if let writer {
            writer.finish()
            self.writer = nil
        }
        dirty = false
        guard let store else { return true }
        return report(StateWriter.write(state, to: store))
    }

    @discardableResult
    private func report(_ outcome: StateWriter.Outcome) -> Bool {
        switch outcome {
        case .saved:
            if failing {
                failing = false
                log("state saved again to \(store?.path ?? "the state file")")
            }
            return true
        case .failed(let error):
            if !failing { log("cannot save state: \(error); the running daemon keeps it and retries every second until it can") }
            failing = true
            dirty = true
            return false
        }
    }
}

/// What a save writes: the canvas and the precision setting, as values.
struct StateSnapshot: Sendable {
    var canvas: Canvas
    var precisionEnabled: Bool
}

/// The thread that encodes and writes the state file. It sleeps until it
/// is handed a snapshot (no timed wakeups); a snapshot handed over while
/// it writes replaces any older one still waiting, since only the newest
/// state matters.
final class StateWriter: Sendable {
    enum Outcome: Sendable, Equatable {
        case saved
        case failed(String)
    }

    private struct Shared {
        var waiting: StateSnapshot?
        var writing = false
        var stopping = false
        var stopped = false
        var outcomes: [Outcome] = []
        /// The writing thread's id, once it runs.
        var thread: pid_t = 0
    }

    let doorbell: Doorbell
    private let shared = WorkSignal(Shared())
    /// How much nicer than the daemon the writing thread runs.
    static let niceness: Int32 = 10

    init(store: StateStore) throws(SystemCallError) {
        doorbell = try Doorbell()
        let shared = shared, doorbell = doorbell
        try startDetachedThread {
            // Below the loop: encoding a large drawing takes CPU the loop's pen frames
            // and answers need first (a tenth of a CPU under the flood of docs/SECURITY.md).
            // On Linux a thread's niceness is its own; the state is saved a second later at most.
            let thread = clinux_gettid()
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread),
                            getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) + Self.niceness)
            shared.update { $0.thread = thread }
            while true {
                let next: StateSnapshot? = shared.wait { s in
                    if let snapshot = s.waiting {
                        s.waiting = nil
                        s.writing = true
                        return .some(snapshot)
                    }
                    return s.stopping ? .some(nil) : nil
                }
                guard let snapshot = next else { break }
                let outcome = Self.write(snapshot, to: store)
                shared.update { s in
                    s.writing = false
                    s.outcomes.append(outcome)
                }
                doorbell.ring()
            }
            shared.update { $0.stopped = true }
        }
    }

    static func write(_ snapshot: StateSnapshot, to store: StateStore) -> Outcome {
        do {
            try store.save(PersistedState(canvas: snapshot.canvas, precisionEnabled: snapshot.precisionEnabled))
            return .saved
        } catch {
            return .failed("\(error)")
        }
    }

    func submit(_ snapshot: StateSnapshot) {
        shared.update { $0.waiting = snapshot }
    }

    /// The writing thread's id (for its niceness in /proc), waiting until it runs.
    func threadID() -> pid_t {
        shared.wait { s in s.thread != 0 ? s.thread : nil }
    }

    func takeOutcomes() -> [Outcome] {
        shared.update { s in
            defer { s.outcomes.removeAll() }
            return s.outcomes
        }
    }

    /// Drops a snapshot not yet started, waits for the save in progress
    /// and ends the thread.
    func finish() {
        shared.update { s in
            s.waiting = nil
            s.stopping = true
        }
        shared.wait { s in s.stopped ? () : nil }
    }
}
