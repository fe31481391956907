// SPDX-License-Identifier: MIT
import StylusSystem
@testable import StylusUinput
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The watchdog on a pipe standing in for a grabbed node: input "waits"
/// while a byte sits unread in it. (The release's EVIOCGRAB fails on a
/// pipe; the grab itself is checked in the guest, hil/filter_safety_tests.py.)
@Suite("Grab watchdog")
struct GrabWatchdogTests {
    final class Node {
        let read: Int32
        let write: Int32
        init() {
            var ends: [Int32] = [-1, -1]
            pipe(&ends)
            (read, write) = (ends[0], ends[1])
        }
        func inputArrives() { var byte: UInt8 = 1; _ = Glibc.write(write, &byte, 1) }
        deinit { close(read); close(write) }
    }

    /// A watchdog (stall limit 200 ms unless said, grace 50 ms) watching one node, after a first turn of the loop.
    final class Watching {
        let lines = Locked<[String]>([])
        let dog: GrabWatchdog
        let node = Node()
        /// Read just before the loop's last turn (`watch` counts as one).
        let lastTurn: Int64
        var logged: [String] { lines.withLock { $0 } }

        init(stallLimit: Int64 = 200_000) {
            let lines = lines
            dog = GrabWatchdog(stallLimit: stallLimit, grace: 50_000, log: { line in lines.withLock { $0.append(line) } })
            dog.loopTurned()
            lastTurn = monotonicMicroseconds()
            dog.watch(fd: node.read, path: "/dev/input/event42")
        }
        deinit { dog.stop() }
    }

    @Test func inputWaitingOnAHungLoopIsReleasedAndTheReasonLogged() {
        let w = Watching()
        let start = w.lastTurn   // the stall is counted from the loop's last turn
        w.node.inputArrives()   // and the loop never turns again
        var released = false
        while !released, monotonicMicroseconds() - start < 3_000_000 {
            usleep(5_000)
            released = w.dog.takeRelease()
        }
        let took = monotonicMicroseconds() - start
        #expect(released)
        // The watchdog keeps time on the coarse clock: it may act up to one tick early.
        var tick = timespec()
        clock_getres(CLOCK_MONOTONIC_COARSE, &tick)
        let slack = Int64(tick.tv_sec) * 1_000_000 + Int64(tick.tv_nsec) / 1000
        // The bound is 2 s; a loaded machine may wake the test late, not the watchdog.
        #expect(took >= 200_000 - slack && took < 2_000_000, "released after \(took) µs (coarse tick \(slack) µs)")
        #expect(w.logged.count == 1)
        #expect(w.logged.first?.contains("event loop has not turned") == true)
        #expect(w.logged.first?.contains("/dev/input/event42") == true)
        #expect(!w.dog.takeRelease(), "a release is reported once")
    }

    @Test func aLoopThatKeepsTurningIsNotReleasedEvenIfInputStaysUnread() {
        // Turns every 20 ms against a 1 s limit: a sleep that a loaded machine stretches tenfold still turns in time.
        let w = Watching(stallLimit: 1_000_000)
        w.node.inputArrives()
        let start = monotonicMicroseconds()
        while monotonicMicroseconds() - start < 2_500_000 {
            w.dog.loopTurned()
            #expect(!w.dog.takeRelease())
            usleep(20_000)
        }
        #expect(w.logged.isEmpty)
    }

    /// A watchdog (stall limit 400 ms, grace 600 ms) on a clock that jumps 3 s 250 ms after input
    /// arrives (time enough for its thread to see the input first), while it sleeps: what a virtual machine's clock does when its host starves it,
    /// the loop and the watchdog stopped alike. `loopTurnsAfter`: real microseconds after which
    /// the loop turns every 20 ms; nil: it never turns again.
    func stalledMachine(loopTurnsAfter: Int64?) -> (released: Bool, logged: [String]) {
        let jump = Locked<Int64>(0)
        let lines = Locked<[String]>([])
        let dog = GrabWatchdog(stallLimit: 400_000, grace: 600_000, clock: { monotonicMicroseconds() + jump.withLock { $0 } },
                               log: { line in lines.withLock { $0.append(line) } })
        defer { dog.stop() }
        let node = Node()
        dog.loopTurned()
        dog.watch(fd: node.read, path: "/dev/input/event42")
        let start = monotonicMicroseconds()
        node.inputArrives()
        usleep(250_000)
        jump.withLock { $0 = 3_000_000 }
        var released = false
        while !released, monotonicMicroseconds() - start < 2_500_000 {
            if let after = loopTurnsAfter, monotonicMicroseconds() - start >= after { dog.loopTurned() }
            usleep(20_000)
            released = dog.takeRelease()
        }
        return (released, lines.withLock { $0 })
    }

    @Test func aStalledMachineDoesNotTakeThePenFromALoopThatTurnsAfterIt() {
        // The watchdog wakes at 600 ms to a clock 3 s on; the loop turns from 800 ms: within the grace it gets again (to 1200 ms).
        let run = stalledMachine(loopTurnsAfter: 800_000)
        #expect(!run.released)
        #expect(run.logged.isEmpty)
    }

    @Test func aLoopStillHungAfterAStalledMachineIsReleased() {
        let run = stalledMachine(loopTurnsAfter: nil)
        #expect(run.released)
        #expect(run.logged.first?.contains("event loop has not turned") == true)
    }

    @Test func anIdleLoopWithNothingWaitingIsNotReleased() {
        let w = Watching()
        usleep(600_000)   // three stall limits, no turn, nothing to read
        #expect(!w.dog.takeRelease())
        #expect(w.logged.isEmpty)
    }

    @Test func aForgottenNodeIsNotWatched() {
        let w = Watching()
        w.dog.forget(fd: w.node.read)
        w.node.inputArrives()
        usleep(600_000)
        #expect(!w.dog.takeRelease())
        #expect(w.logged.isEmpty)
    }
}
