import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// When the canvas is written to the state file: a change after a quiet
/// spell at once, a stream of changes once a second (each save rewrites and
/// fsyncs the whole drawing, so saving on every change let a client
/// toggling thousands of times a second stall everyone else), a failed save
/// again a second later, and everything at a stop.
final class SaveScheduler {
    static let spacing: Int64 = 1_000_000
    private(set) var store: StateStore?
    private var dirty = false
    private var failing = false
    private var lastSaveAt: Int64?
    private let log: (String) -> Void

    init(path: String?, log: @escaping (String) -> Void) {
        store = path.map(StateStore.init(path:))
        self.log = log
    }

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
        }
    }

    func markDirty() { dirty = true }

    /// Saves if the last save is old enough; otherwise returns when to try again.
    func saveIfDue(now: Int64, _ state: () -> PersistedState) -> Int64? {
        guard dirty else { return nil }
        if let last = lastSaveAt, now - last < Self.spacing { return last + Self.spacing }
        lastSaveAt = now
        dirty = !save(state())
        return dirty ? now + Self.spacing : nil
    }

    /// Saves at once (a stop); false when the file keeps an older state.
    func saveNow(_ state: PersistedState) -> Bool {
        dirty = false
        return save(state)
    }

    private func save(_ state: PersistedState) -> Bool {
        guard let store else { return true }
        do {
            try store.save(state)
            if failing {
                failing = false
                log("state saved again to \(store.path)")
            }
            return true
        } catch {
            if !failing { log("cannot save state: \(error); the running daemon keeps it and retries every second until it can") }
            failing = true
            return false
        }
    }
}
