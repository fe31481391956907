// SPDX-License-Identifier: MIT
import StylusCore
import StylusOutput
import StylusProtocol
import StylusSystem
import StylusUinput

/// Which output runs (observe or filter), what was asked for, and every
/// device the input source reported, for an output that takes over at run time.
final class OutputController {
    /// Where input goes next, after the engine.
    private(set) var output: any PenOutput = ObserveOutput()
    /// What was asked for last: `[output] mode` or `--output`, or the `output` command.
    private var requested = OutputChoice.auto
    /// `captures_pen` as the last `output` event said it.
    private var announcedCapture = false
    private var devices: [DeviceID: OutputDevice] = [:]
    /// Why filter mode can never run for this input; nil for live input.
    private let inputCannotFilter: String?
    private unowned let handler: CommandHandler
    /// Sends the effects of a newly chosen output's state to everyone.
    private let publish: () -> Void
    private let log: (String) -> Void
    private let warn: @Sendable (String) -> Void

    init(input: DaemonOptions.Input, handler: CommandHandler, publish: @escaping () -> Void,
         log: @escaping (String) -> Void, warn: @escaping @Sendable (String) -> Void) {
        if case .libinput = input { inputCannotFilter = nil } else { inputCannotFilter = "input comes from a recording; there is no node to grab" }
        self.handler = handler
        self.publish = publish
        self.log = log
        self.warn = warn
    }

    /// The output the configuration asks for, before any input.
    func start(config: EngineConfig) {
        requested = config.output.mode
        output = choose(requested, config: config)
        handler.withholdsPresses = output.mode == .filter
    }

    /// The start-up log line.
    func logStarted() {
        log("output \(output.mode.rawValue) (requested \(requested.rawValue)): \(output.statusReason)")
    }

    func deviceAdded(_ device: OutputDevice) {
        devices[device.id] = device
        output.deviceAdded(device)
    }

    func deviceRemoved(_ id: DeviceID) {
        devices[id] = nil
        output.deviceRemoved(id)
    }

    /// observe, or filter where it was asked for (or `auto`) and /dev/uinput can be written.
    private func choose(_ requested: OutputChoice, config: EngineConfig) -> any PenOutput {
        guard requested != .observe else { return ObserveOutput() }
        if let reason = filterUnavailableReason() {
            if requested == .filter { warn("output filter was asked for, but \(reason); running in observe mode") }
            return ObserveOutput(filterUnavailable: reason)
        }
        return UinputOutput(engine: config, filter: config.output.filter, log: log, warn: warn)
    }

    /// Why filter mode cannot run here, with the fix; nil when it can.
    private func filterUnavailableReason() -> String? {
        inputCannotFilter ?? UinputOutput.unavailableReason()
    }

    /// What `status` and the `output` event say of the output.
    var info: StatusResult.OutputInfo {
        StatusResult.OutputInfo(mode: output.mode.rawValue, requested: requested.rawValue,
                                reason: output.statusReason, waiting: output.waitingToGrab, capturesPen: output.capturesPen)
    }

    /// Replaces the output at run time; engine state (canvas, strokes,
    /// precision) stays. Observe closes a filter at once: every grab is
    /// released and every clone destroyed (the user's escape hatch). With
    /// `refuseImpossible`, a filter that cannot run is an error and nothing
    /// changes; otherwise observe runs and says why. Succeeds with whether
    /// the mode or the requested mode changed: then call `announce`.
    func switchOutput(to choice: OutputChoice, config: EngineConfig, refuseImpossible: Bool) -> Result<Bool, ProtocolError> {
        let before = info
        let unavailable = choice == .observe ? nil : filterUnavailableReason()
        if choice == .filter, let unavailable, refuseImpossible {
            return .failure(ProtocolError(code: .failed, message: "filter is not possible: \(unavailable); the output stays \(output.mode.rawValue)"))
        }
        requested = choice
        let filter = choice != .observe && unavailable == nil
        if filter && output.mode == .filter {
            output.reconfigure(engine: config, filter: config.output.filter)
        } else {
            output.close()
            output = choose(choice, config: config)
            handler.withholdsPresses = output.mode == .filter
            for device in devices.values.sorted(by: { $0.id.rawValue < $1.id.rawValue }) { output.deviceAdded(device) }
            handler.describeStateForOutput(now: monotonicMicroseconds())
            publish()
        }
        let after = info
        return .success(after.mode != before.mode || after.requested != before.requested)
    }

    /// After a reload: a changed `[output] mode` (or `--output`) switches the
    /// output; otherwise the running output takes the new settings. A mode the
    /// `output` command chose stays until the file's mode changes. Returns
    /// whether to `announce` (after the reload is answered).
    func reload(previous: OutputConfig, config: EngineConfig) -> Bool {
        if config.output.mode != previous.mode {
            return (try? switchOutput(to: config.output.mode, config: config, refuseImpossible: false).get()) ?? false
        }
        output.reconfigure(engine: config, filter: config.output.filter)
        return false
    }

    /// A grab that waited, a watchdog release, a clone that failed: the overlay must know.
    func announceIfCaptureChanged(to clients: [ClientConnection]) {
        if output.capturesPen != announcedCapture { announce(to: clients) }
    }

    /// Logs the output that runs now and sends `output` subscribers the event.
    func announce(to clients: [ClientConnection]) {
        let now = info
        announcedCapture = now.capturesPen ?? false
        log("output \(now.mode) (requested \(now.requested)): \(now.reason)\(now.mode == OutputMode.filter.rawValue ? (announcedCapture ? "; while the canvas is open the pen reaches only the canvas" : "; while the canvas is open the pen still reaches the desktop, so the canvas window takes pointer input") : "")")
        let line = Response.line(OutputEvent(now, time: monotonicMicroseconds()))
        for client in clients where client.topics.contains(.output) { client.send(line, kind: .state) }
    }
}
