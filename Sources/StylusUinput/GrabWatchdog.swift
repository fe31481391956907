// SPDX-License-Identifier: MIT
import CLinux
import StylusSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Gives the pen back to the desktop when the daemon's loop hangs while it
/// holds the pen: a grabbed node's input reaches nobody but that loop.
///
/// The loop calls `loopTurned` at the start of every turn (a coarse clock
/// read, which never enters the kernel, and an atomic store; a turn and the
/// input seen in the same tick compare equal, and input that no longer waits
/// is never taken for a hang). The watchdog's own thread sleeps in poll(2) on the
/// grabbed nodes with no timeout, so an idle daemon costs it no wakeup;
/// polling does not read, so it takes no event from the loop. Once input
/// waits on a grabbed node it notes when, then sleeps (no longer watching
/// the nodes, which stay readable) until the loop has had `stallLimit` since
/// its last turn and `grace` since the input was seen. If the loop has not
/// turned since the input was seen and input still waits, it releases every
/// grab (EVIOCGRAB 0), so the pen reaches the desktop through the real node,
/// and logs why. While the pen is in use that is two wakeups per
/// `stallLimit`; a hang is released within `stallLimit` + `grace` of the
/// loop's last turn. The grace is what a loop woken from an idle poll may
/// take to turn under load (the flood in hil/flood.py has delayed pen
/// samples by half a second) without being taken for hung.
///
/// A watchdog woken more than `lateWake` after it asked was not running
/// either: the whole machine stalled (a virtual machine whose host starved
/// it, a stopped process), and the loop had no chance to turn. Once in each
/// wait it gives the loop the grace again from that late wake, so a stalled
/// machine does not take the pen from a loop that was never hung; a loop
/// that stays hung is still released, one grace later.
///
/// What the loop does afterwards is `UinputOutput`'s business: it learns of
/// the release from `takeRelease` at its next turn.
final class GrabWatchdog: Sendable {
    struct Grabbed: Sendable {
        var fd: Int32
        var path: String
    }

    private struct Watched: Sendable {
        var nodes: [Grabbed] = []
        var stopping = false
    }

    /// Microseconds the loop may go without a turn while input waits.
    let stallLimit: Int64
    /// Microseconds input must have waited, unread, before it counts.
    let grace: Int64
    /// Microseconds past its deadline at which the watchdog's own wake counts as a stalled machine.
    static let lateWake: Int64 = 100_000
    /// Microseconds, CLOCK_MONOTONIC_COARSE unless a test stands in for it.
    private let clock: @Sendable () -> Int64
    private let lastTurn = Atomic<Int64>(0)
    private let released = Atomic<Bool>(false)
    /// The grabbed nodes. The loop removes a node here before it closes the
    /// node's descriptor, and the watchdog ungrabs only under this lock, so
    /// it never touches a descriptor number the loop has closed (and the
    /// kernel may have given to another file).
    private let watched = Locked(Watched())
    /// A pipe: the loop writes a byte when `watched` changes.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let thread = Locked<pthread_t?>(nil)
    private let log: @Sendable (String) -> Void

    init(stallLimit: Int64 = 1_000_000, grace: Int64 = 500_000, clock: @escaping @Sendable () -> Int64 = coarseMonotonicMicroseconds,
         log: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.stallLimit = stallLimit
        self.grace = grace
        self.log = log
        var ends: [Int32] = [-1, -1]
        if pipe2(&ends, O_CLOEXEC | O_NONBLOCK) != 0 { ends = [-1, -1] }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Once per turn of the loop.
    func loopTurned() {
        lastTurn.store(clock(), ordering: .releasing)
    }

    /// True once after the watchdog released the grabs.
    func takeRelease() -> Bool {
        released.load(ordering: .acquiring) && released.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// The loop grabbed `fd` (a sign of life too: the first grab comes
    /// before the loop's first turn); the thread starts with the first grab.
    func watch(fd: Int32, path: String) {
        loopTurned()
        watched.withLock { $0.nodes.append(Grabbed(fd: fd, path: path)) }
        startIfNeeded()
        wake()
    }

    /// The loop is about to ungrab or close `fd`.
    func forget(fd: Int32) {
        let changed = watched.withLock { w in
            let before = w.nodes.count
            w.nodes.removeAll { $0.fd == fd }
            return w.nodes.count != before
        }
        if changed { wake() }
    }

    /// Stops the thread and waits for it.
    func stop() {
        watched.withLock { $0.stopping = true; $0.nodes.removeAll() }
        wake()
        if let t = thread.withLock({ t in defer { t = nil }; return t }) { pthread_join(t, nil) }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)   // a full pipe already wakes it
    }

    private func startIfNeeded() {
        thread.withLock { t in
            guard t == nil else { return }
            guard wakeRead >= 0 else {
                // Said at every grab, not once: the user must not miss it.
                return log("filter: no watchdog (its wake-up pipe could not be made): a hung daemon would keep the pen grabbed until it is killed")
            }
            let box = Unmanaged.passRetained(self).toOpaque()
            var created = pthread_t()
            if pthread_create(&created, nil, { argument in
                Unmanaged<GrabWatchdog>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, box) == 0 {
                t = created
            } else {
                Unmanaged<GrabWatchdog>.fromOpaque(box).release()
                log("filter: no watchdog thread (\(String(cString: strerror(errno)))): a hung daemon would keep the pen grabbed until it is killed")
            }
        }
    }

    // MARK: The watchdog's thread

    private func run() {
        var fds: [pollfd] = []
        while true {
            let nodes = watched.withLock { $0.stopping ? nil : $0.nodes }
            guard let nodes else { return }
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for n in nodes { fds.append(pollfd(fd: n.fd, events: Int16(POLLIN), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), -1) > 0 else { continue }
            if fds[0].revents != 0 {
                drainWakeups()
                continue
            }
            guard fds.dropFirst().contains(where: { $0.revents & Int16(POLLIN) != 0 }) else {
                // Only a hang-up (the node was unplugged): the loop forgets it soon; no spinning until then.
                _ = sleepUntilWoken(milliseconds: Int32(stallLimit / 1000))
                continue
            }
            if stalled(since: clock()) { release(waitingSince: lastTurn.load(ordering: .acquiring)) }
        }
    }

    /// Input was seen waiting at `seen`: true when the loop has not turned
    /// since, for long enough, and input still waits.
    private func stalled(since seen: Int64) -> Bool {
        var seen = seen, forgiven = false
        while true {
            let turn = lastTurn.load(ordering: .acquiring)
            if turn > seen { return false }   // alive: it turned after the input came
            let now = clock()
            let deadline = max(turn + stallLimit, seen + grace)
            if now >= deadline { return inputWaits() }
            if sleepUntilWoken(milliseconds: Int32((deadline - now + 999) / 1000)) { return false }
            let woke = clock()
            if !forgiven, woke - deadline > Self.lateWake {
                forgiven = true
                seen = woke
            }
        }
    }

    /// Sleeps on the wake pipe only; true when it was written (the grabbed set changed, or stop).
    private func sleepUntilWoken(milliseconds: Int32) -> Bool {
        var fd = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, milliseconds) > 0
    }

    /// Under the lock, on the nodes grabbed now: a descriptor the loop closed
    /// since (and the kernel may have given to another file) is never asked.
    private func inputWaits() -> Bool {
        watched.withLock { w in
            var fds = w.nodes.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            return poll(&fds, nfds_t(fds.count), 0) > 0 && fds.contains { $0.revents & Int16(POLLIN) != 0 }
        }
    }

    private func drainWakeups() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &bytes, bytes.count) > 0 {}
    }

    private func release(waitingSince lastTurn: Int64) {
        let paths: [String] = watched.withLock { w in
            guard !w.stopping else { return [] }
            for n in w.nodes { _ = ioctl(n.fd, UInt(EVIOCGRAB), 0 as Int32) }
            defer { w.nodes.removeAll() }
            return w.nodes.map(\.path)
        }
        guard !paths.isEmpty else { return }
        released.store(true, ordering: .releasing)
        let stalledMS = (clock() - lastTurn) / 1000
        log("filter: watchdog: the event loop has not turned for \(stalledMS) ms while pen input waited; released the grab of \(paths.joined(separator: ", ")) so the pen reaches the desktop directly. stylusd grabs again once its loop runs and the pen is out of proximity with no button held")
    }
}

/// EVIOCGRAB, `_IOW('E', 0x90, int)`: a function-like macro Swift does not import.
let EVIOCGRAB: UInt32 = 0x4004_4590
