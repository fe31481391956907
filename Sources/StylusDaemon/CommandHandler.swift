// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusProtocol
import StylusInput
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon answers, without sockets: it holds the engine and what
/// `status` reports, decodes a client's line and returns the response's
/// bytes. Requests that need a helper process (a reload, the first probe)
/// come back as deferred; the loop answers them when the helper is done.
/// Swift tests drive this type directly.
final class CommandHandler {
    private(set) var engine: Engine
    /// What the engine produced since the fan-out last took it.
    var effects = Effects()
    /// Why no pen is in use, for `status`; nil while a pen is.
    private(set) var buttonOnlyReason: String?
    /// The last probe of the hardware (`devices`), refreshed on hotplug; nil
    /// until the first probe has finished. Encoded once per probe: a client
    /// asking `devices` in a loop costs the daemon a copy, not an encoding.
    var devices: ProbeReport? {
        didSet { encodedDevices = devices.map { Response.EncodedResult(DevicesResult($0)) } }
    }
    private(set) var encodedDevices: Response.EncodedResult?
    private let tracksPens: Bool
    /// The recording that is the input (`stylusd --replay`), if one is.
    private let recording: String?
    private var pens: Set<DeviceID> = []
    private let log: (String) -> Void
    /// What `status` says of the output; the daemon, which owns the output, answers it.
    var outputStatus: () -> StatusResult.OutputInfo = {
        StatusResult.OutputInfo(mode: "observe", requested: "observe", reason: "observe: no output has been chosen yet")
    }

    /// Why an action cannot work here, with the fix (no /dev/uinput for
    /// `key:`), for `status`; the daemon, which performs them, answers it.
    var actionUnavailable: (Action) -> String? = { _ in nil }

    enum Answer {
        case now([UInt8])
        /// Answer with `reloadAnswer` once the configuration is parsed.
        case afterReload(id: JSONValue)
        /// Answer with `devicesAnswer` once the first probe is in.
        case afterProbe(id: JSONValue)
        /// The daemon replaces its output, then answers with `outputAnswer`.
        case switchOutput(id: JSONValue, to: OutputChoice)
        /// A helper writes the drawing (`Exporter`); the answer comes when it is done.
        case export(id: JSONValue, ExportRequest)
        /// The canvas process makes it (`Daemon+Share`); the answer comes with its `shared`.
        case share(id: JSONValue, ShareKind, path: String?, monitor: String?)
        /// The canvas's `shared`: the waiting client is answered, then the canvas.
        case shared(id: JSONValue, ShareReply)
    }

    enum ExportRequest: Equatable {
        /// `export`: the file named, at the size given or the default one.
        case file(path: String, width: Int?, height: Int?)
        /// `submit`: a new PNG in the export folder (or inline), then the drawing ends.
        case submit(SubmitOptions)
    }

    /// - Parameter tracksPens: live input (libinput) decides button-only
    ///   mode from the pens it sees; a recording does not.
    /// - Parameter recording: the recording played instead of libinput:
    ///   `devices` then answers with its devices, as `status` does.
    init(config: EngineConfig, buttonOnlyReason: String?, tracksPens: Bool, recording: String? = nil, log: @escaping (String) -> Void) {
        engine = Engine(config: config)
        self.buttonOnlyReason = buttonOnlyReason
        self.tracksPens = tracksPens
        self.recording = recording
        self.log = log
    }

    func restore(canvas: Canvas, precisionEnabled: Bool) {
        engine.restore(canvas: canvas, precisionEnabled: precisionEnabled)
    }

    // MARK: Input

    /// One input from the pen, at its kernel time; timers due before it fire first.
    func handle(_ timed: TimedPenInput) {
        // Only the engine's mutating calls here, none of its getters: a getter
        // of a struct kept in a class copies the whole Engine first (filter
        // mode's profile, once per pen input). Nothing due: nothing fires.
        engine.fireTimers(at: timed.time, into: &effects)   // each timer is stamped with its own deadline
        engine.handle(timed.input, at: timed.time, into: &effects)
        track(timed.input)
    }

    func fireTimers(now: Int64) {
        if let deadline = engine.nextDeadline, deadline <= now {
            engine.fireTimers(at: now, into: &effects)
        }
    }

    var nextDeadline: Int64? { engine.nextDeadline }

    /// Filter mode: the end of a withheld press's interval is a deadline.
    var withholdsPresses: Bool {
        get { engine.withholdsPresses }
        set { engine.withholdsPresses = newValue }
    }

    /// Tells the output the canvas state it starts from (after a restore).
    func describeStateForOutput(now: Int64) {
        engine.describeState(forOutputAt: now, into: &effects)
    }

    var publishesSamples: Bool {
        get { engine.publishesSamples }
        set { engine.publishesSamples = newValue }
    }

    private func track(_ input: PenInput) {
        guard tracksPens else { return }
        switch input {
        case .deviceAdded(let id, let info) where info.kind == .pen:
            if pens.isEmpty, buttonOnlyReason != nil { log("pen found: \(info.name); leaving button-only mode") }
            pens.insert(id)
            buttonOnlyReason = nil
        case .deviceRemoved(let id):
            if pens.remove(id) != nil, pens.isEmpty {
                buttonOnlyReason = "the last pen was removed"
                log("last pen removed; running button-only until a pen appears")
            }
        default:
            break
        }
    }

    // MARK: Requests

    /// Decodes and answers one line; `topics` is the asking client's
    /// subscription, `peer` its process (the kernel's word, SO_PEERCRED).
    /// `client` is the asking connection's number, so that what a client
    /// set for as long as it is connected (the palette's regions) goes with it.
    func answer(_ line: [UInt8], topics: inout Set<Topic>, now: Int64, peer: pid_t? = nil, client: Int? = nil) -> Answer {
        switch Request.decode(line) {
        case .failure(let failure):
            return .now(Response.failure(id: failure.id, failure.error))
        case .success(let request):
            return execute(request, topics: &topics, now: now, peer: peer, client: client)
        }
    }

    /// The connection whose palette regions the engine holds.
    private var paletteOwner: Int?

    /// A client disconnected: a palette it reported is gone with its canvas,
    /// so a tap there draws again instead of selecting from a palette nobody shows.
    /// An overlay report sent on a connection that follows events (the GNOME
    /// extension's, closed when it is disabled) goes with it.
    func clientLeft(_ client: Int, now: Int64) {
        if let overlay, overlay.connection == client {
            log("the canvas overlay (\(overlay.report.backend)) closed its connection: no overlay reported")
            self.overlay = nil
        }
        guard paletteOwner == client else { return }
        paletteOwner = nil
        _ = engine.perform(.paletteRegions([]), at: now, into: &effects)
    }

    func execute(_ request: Request, topics: inout Set<Topic>, now: Int64, peer: pid_t? = nil, client: Int? = nil) -> Answer {
        let id = request.id
        switch request.command {
        case .status: return .now(status(id))
        case .toggle: return .now(perform(.toggleCanvas, id, now))
        case .open: return .now(perform(.openCanvas, id, now))
        case .minimize: return .now(perform(.minimizeCanvas, id, now))
        case .ack: return .now(perform(.acknowledgeTransition, id, now))
        case .clear: return .now(perform(.clearCanvas, id, now))
        case .undo: return .now(perform(.undo, id, now))
        case .redo: return .now(perform(.redo, id, now))
        case .tool(nil, nil, nil, nil): return .now(status(id))
        case .tool(let tool, let color, let width, nil): return .now(perform(.style(.set(tool: tool, color: color, width: width)), id, now))
        case .tool(let tool, let color, let width, let pen?):
            return .now(perform(.penStyle(.set(tool: tool, color: color, width: width), pen: pen), id, now))
        case .styleStep(let request, nil): return .now(perform(.style(request), id, now))
        case .styleStep(let request, let pen?): return .now(perform(.penStyle(request, pen: pen), id, now))
        case .pens: return .now(Response.success(id: id, PensResult(engine.pens, now: now)))
        case .palette(let request): return .now(perform(.palette(request), id, now))
        case .paletteRegions(let regions):
            paletteOwner = regions.isEmpty ? nil : client
            return .now(perform(.paletteRegions(regions), id, now))
        case .precision(let action): return .now(perform(.precision(action), id, now))
        case .background(nil): return .now(status(id))
        case .background(let request?): return .now(perform(.background(request), id, now))
        case .export(let path, let width, let height): return .export(id: id, .file(path: path, width: width, height: height))
        case .submit: return .export(id: id, .submit(SubmitOptions()))
        case .submitWith(let options): return .export(id: id, .submit(options))
        case .discard: return .now(perform(.discard, id, now))
        case .strokes: return .now(Response.success(id: id, StrokesResult(canvas: engine.canvas)))
        case .strokesFrom(let index): return .now(Response.success(id: id, StrokesResult(canvas: engine.canvas, from: index)))
        case .subscribe(let added):
            topics.formUnion(added)
            return .now(Response.success(id: id, TopicsResult(topics: Topic.allCases.filter(topics.contains).map(\.rawValue))))
        case .unsubscribe(let removed):
            topics.subtract(removed)
            return .now(Response.success(id: id, TopicsResult(topics: Topic.allCases.filter(topics.contains).map(\.rawValue))))
        case .devices:
            if let recording { return .now(Response.success(id: id, recordedDevices(recording))) }
            return devices == nil ? .afterProbe(id: id) : .now(devicesAnswer(id: id))
        case .reload:
            return .afterReload(id: id)
        case .output(let choice):
            return .switchOutput(id: id, to: choice)
        case .draw(let request): return .now(drawn(request, engine.perform(.draw(request), at: now, into: &effects), id))
        case .text(let request): return .now(perform(.text(request), id, now))
        case .overlay(let report):
            if overlay?.report != report { log("the canvas overlay reports: \(report.backend), \(report.outputs) output\(report.outputs == 1 ? "" : "s")") }
            overlay = (report, peer, topics.isEmpty ? nil : client)
            return .now(status(id))
        case .key(let name): return pressed(name, id, now)
        case .snapshot(let path, let monitor): return .share(id: id, .snapshot, path: path, monitor: monitor)
        case .copy(let snapshot): return .share(id: id, snapshot ? .copySnapshot : .copyDrawing, path: nil, monitor: nil)
        case .shared(let reply): return .shared(id: id, reply)
        }
    }

    /// The last overlay report, the process that sent it and, when it came on a
    /// connection that follows events, that connection. Shown by `status` while
    /// that process runs and that connection stays open (stylus-canvas reports
    /// on a connection of a moment, whose end says nothing).
    private(set) var overlay: (report: OverlayReport, pid: pid_t?, connection: Int?)?

    /// The last `status` answer for each `changed`, with what it said (`StatusKey`).
    var statusCache: [Bool?: (key: StatusKey, encoded: Response.EncodedResult)] = [:]

    func perform(_ command: Command, _ id: JSONValue, _ now: Int64) -> [UInt8] {
        switch engine.perform(command, at: now, into: &effects) {
        case .done: return status(id, changed: true)
        case .unchanged(let reason): return status(id, changed: false, reason: reason)
        case .refused(let reason): return Response.failure(id: id, ProtocolError(code: .refused, message: reason))
        }
    }

    /// A submit's picture is written: the engine ends the drawing (its event, a clear, a minimize).
    func submitted(path: String, source: ChangeSource, now: Int64, pngBase64: String? = nil) {
        _ = engine.perform(.submit(path: path, source: source), at: now, into: &effects)
        guard let pngBase64 else { return }
        // Inline: the picture is in the event, and the file it came through is gone.
        for i in effects.events.indices.reversed() {
            guard case .canvas(var event) = effects.events[i], event.result == .submitted, event.cause == .submit else { continue }
            event.path = nil
            event.pngBase64 = pngBase64
            effects.events[i] = .canvas(event)
            break
        }
    }

    // MARK: Actions

    /// `preset:NAME`: the running configuration as the loaded file would
    /// give it with that preset (keys the file or command line set stay).
    /// Nil when it switched, else why not.
    func switchPreset(to name: String) -> String? {
        guard let preset = Preset(rawValue: name) else { return "unknown preset \"\(name)\"" }
        let current = engine.config
        if current.preset == name { return "preset \(name) is already running" }
        let switched = current.switchingPreset(to: name, presetConfig: preset.config)
        if let problem = switched.problems().first {
            return "preset \(name) with the file's own keys is not valid: \(problem)"
        }
        engine.reconfigure(switched)
        log("preset \(name): interval \(switched.doublePressIntervalMS) ms, debounce \(switched.debounceMS) ms, transition \(switched.transitionMS) ms, minimum scale \(switched.precision.minimumScale)")
        return nil
    }

    /// Marks the double press behind `request` as not applied, with the reason.
    func ignore(_ request: ActionRequest, reason: String) {
        guard effects.events.indices.contains(request.eventIndex),
              case .doublePress(var event) = effects.events[request.eventIndex] else { return }
        event.outcome = .ignored(reason: reason)
        effects.events[request.eventIndex] = .doublePress(event)
    }

    // MARK: Deferred answers

    /// Puts a parsed configuration in place; the running one stays on failure.
    func applyReload(_ outcome: Result<EngineConfig, ConfigError>, now: Int64 = 0) {
        switch outcome {
        case .success(let config):
            engine.reconfigure(config, at: now, into: &effects)
            log("configuration reloaded: interval \(config.doublePressIntervalMS) ms, debounce \(config.debounceMS) ms, transition \(config.transitionMS) ms")
        case .failure(let error):
            log("reload failed, keeping the running configuration: \(error)")
        }
    }
}
