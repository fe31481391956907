// SPDX-License-Identifier: MIT
import StylusCore
import StylusInput
#if canImport(Glibc)
import Glibc
#endif

/// Where pen input comes from: libinput, or a recording played back at its
/// own pace (so clients can be built and shown with no pen at all).
final class InputSource {
    private let monitor: LibinputMonitor?
    private let player: RecordingPlayback?

    init(_ input: DaemonOptions.Input, log: @escaping (String) -> Void) throws(DaemonError) {
        switch input {
        case .libinput(let source):
            do { monitor = try LibinputMonitor(source: source) } catch { throw .input("cannot start input: \(error)") }
            player = nil
        case .recording(let path, let description, let loop, let speed):
            monitor = nil
            player = try RecordingPlayback(path: path, descriptionPath: description, loop: loop, speed: speed, log: log)
            log("playing \(path)\(loop ? " in a loop" : "")\(speed != 1 ? " at \(speed)x" : "") instead of libinput")
        }
    }

    var fd: Int32 { monitor?.fd ?? player!.timer.fd }

    func nodePath(of id: DeviceID) -> String? { monitor?.nodePath(of: id) }

    func drain(_ body: (LiveInput) -> Void) {
        if let monitor { monitor.dispatch(body) }
        if let player { player.drainDue(now: monotonicMicroseconds()) { body(.pen($0)) } }
    }

    func armPacing() { player?.arm() }
}

/// A recording translated up front, then released input by input when its
/// time comes. The engine sees the recording's own spacing (mapped onto
/// CLOCK_MONOTONIC like libinput's times) whatever the speed, so the same
/// double presses come out at any speed; only the release is faster.
final class RecordingPlayback {
    let timer: DeadlineTimer
    private let inputs: [TimedPenInput]
    private let loop: Bool
    private let speed: Double
    private var index = 0
    private var loops: Int64 = 0
    private let start: Microseconds
    private let firstTime: Microseconds
    private let span: Microseconds
    private let path: String
    private let log: (String) -> Void

    init(path: String, descriptionPath: String?, loop: Bool, speed: Double, log: @escaping (String) -> Void) throws(DaemonError) {
        var collected: [TimedPenInput] = []
        do {
            var given: DeviceDescription?
            if let descriptionPath {
                given = try EvemuReader.description(of: readFile(descriptionPath), file: descriptionPath)
            }
            var translator: EvdevTranslator?
            try EvemuReader.read(readFile(path), file: path, description: given, onStart: { description in
                translator = EvdevTranslator(device: DeviceID(1), description: description)
            }, onEvent: { type, code, value, time in
                if collected.isEmpty, let t = translator {
                    collected.append(TimedPenInput(.deviceAdded(t.device, DeviceInfo(name: "\(t.deviceInfo.name) (recording)", kind: t.deviceInfo.kind, area: t.deviceInfo.area)), at: time))
                }
                translator!.feed(type: type, code: code, value: value, time: time, into: &collected)
            })
        } catch {
            throw .input("cannot play \(path): \(error)")
        }
        guard let first = collected.first?.time, let last = collected.last?.time else { throw .input("\(path) has no events to play") }
        inputs = collected
        self.loop = loop
        self.speed = speed
        self.path = path
        self.log = log
        firstTime = first
        span = last - first + 1_000_000
        start = monotonicMicroseconds() + 200_000
        timer = try DeadlineTimer()
        arm()
    }

    private func offset(_ i: Int) -> Microseconds { inputs[i].time - firstTime + loops * span }

    private func due(_ i: Int) -> Microseconds { start + Microseconds(Double(offset(i)) / speed) }

    func drainDue(now: Microseconds, _ body: (TimedPenInput) -> Void) {
        timer.acknowledge()
        while index < inputs.count, due(index) <= now {
            body(TimedPenInput(inputs[index].input, at: start + offset(index)))
            index += 1
            if index == inputs.count {
                if loop {
                    loops += 1
                    index = 1   // the device stays; it is added once
                    log("\(path) ended; playing it again (pass \(loops + 1))")
                } else {
                    log("\(path) ended; the recorded pen stays, the canvas stays as it left it, and socket commands still work")
                }
            }
        }
    }

    func arm() { timer.set(index < inputs.count ? due(index) : nil) }
}
