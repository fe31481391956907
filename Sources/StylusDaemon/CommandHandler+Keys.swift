// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore
import StylusProtocol

/// The `key` command: a key pressed on the open canvas does what the key table
/// binds it to, the canvas's default keys (canvas-spec.json) with
/// `[canvas.keys]` over them, performed as the same command a binding's
/// action is, so its answer and events are that command's.
extension CommandHandler {
    /// The action `name` is bound to; nil when unbound (or bound to `none`).
    func canvasKeyAction(_ name: CanvasKeyName) -> Action? {
        let action = engine.config.canvasKeys[name.description] ?? CanvasSpec.keyTable[name]
        return action == Action.none ? nil : action
    }

    func pressed(_ name: CanvasKeyName, _ id: JSONValue, _ now: Int64) -> Answer {
        func refuse(_ message: String) -> Answer { .now(Response.failure(id: id, ProtocolError(code: .refused, message: message))) }
        guard engine.canvas.state == .open || engine.canvas.state == .opening else {
            return refuse("key \(name): the canvas is \(engine.canvas.state.rawValue); its keys act only while it is open")
        }
        guard let action = canvasKeyAction(name) else { return refuse("key \(name) is not bound") }
        // The canvas takes these: the key's answer waits for its `shared`, as the command's does.
        switch action {
        case .snapshot: return .share(id: id, .snapshot, path: nil, monitor: nil)
        case .copy(let snapshot): return .share(id: id, snapshot ? .copySnapshot : .copyDrawing, path: nil, monitor: nil)
        default: break
        }
        switch Self.command(for: action) {
        case .success(let command?): return .now(perform(command, id, now))
        case .success(nil): return .export(id: id, .submit(SubmitOptions()))
        case .failure(let reason): return refuse("key \(name) -> \(action): \(reason.message)")
        }
    }

    /// The command that performs `action` as a binding's double press would;
    /// nil for `submit`, which the exporter starts. Actions on the world
    /// outside (preset, exec, key, click) are for pen and pad bindings only:
    /// `[canvas.keys]` refuses them, so only an old configuration could get here.
    static func command(for action: Action) -> Result<Command?, ActionError> {
        switch action {
        case .toggleCanvas: .success(.toggleCanvas)
        case .togglePrecision: .success(.precision(.toggle))
        case .undo: .success(.undo)
        case .redo: .success(.redo)
        case .style(let request): .success(.style(request))
        case .background(let request): .success(.background(request))
        case .palette: .success(.palette(.toggle))
        case .clearCanvas: .success(.clearCanvas)
        case .openCanvas: .success(.openCanvas)
        case .minimizeCanvas: .success(.minimizeCanvas)
        case .discard: .success(.discard)
        case .submit: .success(nil)
        case .snapshot, .copy: .failure(ActionError("the canvas program performs it (a share request), not the engine"))
        case .preset, .exec, .key, .click, .none: .failure(CanvasKeyName.refusal(for: action) ?? ActionError("nothing to do"))
        }
    }
}
