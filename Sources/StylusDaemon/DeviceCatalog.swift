// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusInput
import StylusSystem

/// The hardware probe behind `devices`. A probe opens every event node and
/// loads libwacom's database (8-55 ms, more on a busy machine), so it runs
/// in a helper process (`stylusd probe --json`) whose pipe sits in the poll
/// set: at start, and again after each hotplug. `devices` is answered from
/// the last finished probe.
final class DeviceCatalog {
    /// A probe reads libwacom's whole database; on a slow or loaded machine
    /// (an emulated one reading it over 9p took 10 s) that is not a hang.
    static let timeout: Int64 = 30_000_000
    /// A probe is a helper's work: it runs below the daemon's loop in CPU priority.
    static let niceness: Int32 = 19

    private let executable: String
    private let log: (String) -> Void
    private var child: ChildProcess?
    private var startedAt: Int64 = 0
    /// A hotplug came (or start-up): probe at the end of the turn, or when the running probe ends.
    private var stale = false

    init(executable: String, log: @escaping (String) -> Void) {
        self.executable = executable
        self.log = log
    }

    var fd: Int32? { child?.fd }
    var deadline: Int64? { child == nil ? nil : startedAt + Self.timeout }

    /// Asks for a probe; the ones asked for in one loop turn (libinput adds
    /// every device at start in one go) are one probe, started by `startIfAsked`.
    func refresh() { stale = true }

    /// Starts the probe asked for, unless one is running (it starts when that ends).
    /// `now` is read only when a probe starts: the loop calls this every turn.
    func startIfAsked(now: @autoclosure () -> Int64) {
        guard stale, child == nil else { return }
        stale = false
        let now = now()
        do {
            child = try ChildProcess(executable: executable, arguments: [ChildProcess.runningProgram ?? "stylusd", "probe", "--json"],
                                     niceness: Self.niceness)
            startedAt = now
        } catch {
            log("cannot probe the input hardware: \(error)")
        }
    }

    /// Reads the probe's output; once it has ended, its report (nil if it failed, with the reason logged).
    func readable(now: Int64) -> ProbeReport?? {
        guard let child, child.readAvailable() else { return nil }
        self.child = nil
        let ending = child.wait()
        let report: ProbeReport?
        if ending == .exited(0), let decoded = try? JSONDecoder().decode(ProbeReport.self, from: Data(child.output)) {
            report = decoded
        } else {
            log("the hardware probe (\(executable) probe --json) failed: \(ending); `devices` keeps the last probe")
            report = nil
        }
        startIfAsked(now: now)
        return .some(report)
    }

    /// Stops a probe past its deadline.
    func timeOut(now: Int64) -> Bool {
        guard let child, startedAt + Self.timeout <= now else { return false }
        _ = child.stop()
        self.child = nil
        log("the hardware probe did not finish within \(Self.timeout / 1_000_000) s and was stopped; `devices` keeps the last probe")
        startIfAsked(now: now)
        return true
    }
}
