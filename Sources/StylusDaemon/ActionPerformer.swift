// SPDX-License-Identifier: MIT
import StylusCore
import StylusOutput
import StylusProtocol
import StylusUinput

/// Performs what double presses ask of the world outside the engine: a
/// preset switch, a command, a key chord or a click. Owns the commands that
/// run and the virtual keyboard and pointer.
final class ActionPerformer {
    /// `exec:` bindings' commands, reaped through the poll set.
    let commands: CommandLauncher
    /// The virtual keyboard and pointer of `key:` and `click:` bindings,
    /// made while a binding needs them; else why they could not be made.
    private var devices: Result<ActionDevices, ActionDevicesError>?
    private unowned let handler: CommandHandler
    private unowned let outputs: OutputController
    private let log: (String) -> Void
    private let warn: (String) -> Void
    /// Starts a `submit`'s picture (the daemon's exporter) for a double press of
    /// the pen or the pad; nil when started, else why not.
    var submit: (ChangeSource) -> String? = { _ in "no exporter" }
    /// Asks the canvas for a snapshot or a copy (`Daemon+Share`); nil when asked, else why not.
    var share: (ShareKind) -> String? = { _ in "no canvas link" }

    init(handler: CommandHandler, outputs: OutputController, log: @escaping (String) -> Void, warn: @escaping (String) -> Void) {
        commands = CommandLauncher(log: log)
        self.handler = handler
        self.outputs = outputs
        self.log = log
        self.warn = warn
    }

    /// Performs the double presses' preset, exec, key and click actions; one
    /// that cannot be performed turns its double-press event into "ignored",
    /// with the reason, before the event is published.
    func performRequests() {
        guard !handler.effects.actionRequests.isEmpty else { return }
        for request in handler.effects.actionRequests {
            if let reason = perform(request) {
                log("double press \(request.button) -> \(request.action) ignored: \(reason)")
                handler.ignore(request, reason: reason)
            }
        }
        handler.effects.actionRequests.removeAll(keepingCapacity: true)
    }

    /// Nil when done, else why not.
    private func perform(_ request: ActionRequest) -> String? {
        switch request.action {
        case .preset(let name):
            if let reason = handler.switchPreset(to: name) { return reason }
            outputs.output.reconfigure(engine: handler.engine.config, filter: handler.engine.config.output.filter)
            return nil
        case .exec(let command):
            return commands.start(command, for: request.button)
        case .key(let chord):
            return withDevices { $0.press(chord) }
        case .click(let button):
            return withDevices { $0.click(button) }
        case .submit:
            if case .pad = request.button { return submit(.pad) }
            return submit(.pen)
        case .snapshot: return share(.snapshot)
        case .copy(let snapshot): return share(snapshot ? .copySnapshot : .copyDrawing)
        case .toggleCanvas, .togglePrecision, .undo, .redo, .style, .background, .palette, .clearCanvas, .openCanvas, .minimizeCanvas, .discard, .none:
            return nil   // the engine's own
        }
    }

    /// Why `action` cannot work here, with the fix; nil when it can.
    func unavailableReason(_ action: Action) -> String? {
        switch (action, devices) {
        case (.key, .failure(let error)?), (.click, .failure(let error)?):
            "no virtual \(action.form == .key ? "keyboard" : "pointer"): \(error.reason)"
        default:
            nil
        }
    }

    /// Makes the virtual keyboard and pointer when a binding needs them and
    /// they are not there; drops them when none does.
    func prepareDevices(for config: EngineConfig) {
        let actions = config.boundButtons.map(\.action) + config.pens.flatMap(\.bindings.values)
        let needed = actions.contains { $0.form == .key || $0.form == .click }
        guard needed else { return devices = nil }
        if case .success = devices { return }
        do {
            let made = try ActionDevices()
            devices = .success(made)
            log("key: and click: bindings write to the virtual keyboard \(made.keyboardNode) and pointer \(made.pointerNode)")
        } catch {
            devices = .failure(error)
            warn("key: and click: bindings cannot work: \(error.reason)")
        }
    }

    /// Runs `body` on the virtual devices, made now if an earlier attempt
    /// failed (the fix may have been applied since); nil when done, else why not.
    private func withDevices(_ body: (ActionDevices) -> String?) -> String? {
        var madeNow = false
        if case .failure = devices {
            devices = nil
            madeNow = true
        }
        prepareDevices(for: handler.engine.config)
        switch devices {
        case .success? where madeNow:
            // The desktop has not opened a device made this instant: what it writes now reaches no one.
            return "the virtual keyboard and pointer were made just now (the fix works); the desktop takes them up in a moment: double press again"
        case .success(let made)?: return body(made)
        case .failure(let error)?: return "no virtual keyboard or pointer: \(error.reason)"
        case nil: return "no binding needs a virtual keyboard or pointer"
        }
    }
}
