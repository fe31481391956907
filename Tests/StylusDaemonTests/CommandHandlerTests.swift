// SPDX-License-Identifier: MIT
import FoundationEssentials
@testable import StylusCore
@testable import StylusDaemon
import StylusProtocol
import StylusConfig
@testable import StylusInput
import Testing

/// The daemon's answers, driven without a socket or a loop.
@Suite("Command handler")
struct CommandHandlerTests {
    static func handler(devices: ProbeReport? = nil) -> CommandHandler {
        let h = CommandHandler(config: EngineConfig(), buttonOnlyReason: "no /dev/input here", tracksPens: true, log: { _ in })
        h.devices = devices
        return h
    }

    static func ask(_ h: CommandHandler, _ line: String, topics: inout Set<Topic>, now: Int64 = 1_000) -> CommandHandler.Answer {
        h.answer(Array(line.utf8), topics: &topics, now: now)
    }

    static func json(_ answer: CommandHandler.Answer) throws -> JSONValue {
        guard case .now(let bytes) = answer else { throw Failure("the answer was deferred") }
        #expect(bytes.last == 0x0a, "one line per answer")
        return try JSONDecoder().decode(JSONValue.self, from: Data(bytes.dropLast()))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    @Test func toggleOpensTheCanvasAndTheEventWaitsForTheFanout() throws {
        let h = Self.handler()
        var topics: Set<Topic> = []
        let answer = try Self.json(Self.ask(h, #"{"id":3,"cmd":"toggle"}"#, topics: &topics))
        guard case .object(let o) = answer, case .object(let result)? = o["result"], case .object(let canvas)? = result["canvas"] else {
            throw Failure("unexpected answer \(answer)")
        }
        #expect(o["id"] == .number(3) && o["ok"] == .bool(true))
        #expect(canvas["state"] == .string("opening"))
        #expect(result["changed"] == .bool(true))
        #expect(h.effects.events.contains { if case .canvas = $0 { true } else { false } }, "the canvas event is left for the fan-out")
    }

    @Test func undoRemovesTheLastStrokeAndOnAnEmptyCanvasAnswersUnchangedWithAReason() throws {
        let h = Self.handler()
        let point = StrokePoint(x: 0.5, y: 0.5, pressure: 0.5, tiltX: 0, tiltY: 0, time: 1)
        let strokes = (0..<2).map { _ in Stroke(device: DeviceID(1), tool: .pen, points: [point, point]) }
        h.restore(canvas: Canvas(state: .open, strokes: strokes), precisionEnabled: false)
        var topics: Set<Topic> = []
        func result(_ line: String) throws -> [String: JSONValue] {
            guard case .object(let o) = try Self.json(Self.ask(h, line, topics: &topics)), o["ok"] == .bool(true),
                  case .object(let result)? = o["result"] else { throw Failure("unexpected answer to \(line)") }
            return result
        }
        #expect(try result(#"{"id":1,"cmd":"undo"}"#)["changed"] == .bool(true))
        #expect(h.engine.canvas.strokes == [strokes[0]])
        #expect(h.effects.stateChanged, "the removal is persisted")
        let undone = h.effects.events.compactMap { if case .canvas(let e) = $0, e.cause == .undo { e } else { nil } }
        #expect(undone.map(\.strokeCount) == [1], "the event is left for the fan-out")
        _ = try result(#"{"id":2,"cmd":"undo"}"#)
        let empty = try result(#"{"id":3,"cmd":"undo"}"#)
        #expect(empty["changed"] == .bool(false))
        #expect(empty["reason"] == .string("canvas is empty; nothing to undo"))
    }

    @Test func subscribeChangesOnlyTheAskingClientsTopics() throws {
        let h = Self.handler()
        var topics: Set<Topic> = []
        _ = try Self.json(Self.ask(h, #"{"id":1,"cmd":"subscribe","topics":["canvas","pen"]}"#, topics: &topics))
        #expect(topics == [.canvas, .pen])
        _ = try Self.json(Self.ask(h, #"{"id":2,"cmd":"unsubscribe","topics":["pen"]}"#, topics: &topics))
        #expect(topics == [.canvas])
    }

    @Test func reloadIsDeferredToTheParserWithItsId() {
        let h = Self.handler()
        var topics: Set<Topic> = []
        guard case .afterReload(let id) = Self.ask(h, #"{"id":"r1","cmd":"reload"}"#, topics: &topics) else {
            Issue.record("reload was answered inside the turn")
            return
        }
        #expect(id == .string("r1"))
    }

    @Test func aFailedReloadKeepsTheRunningConfigurationAndSaysSo() throws {
        let h = Self.handler()
        let error = ConfigError(file: "/c.toml", line: 2, key: "engine.interval_ms", message: "out of range")
        h.applyReload(.failure(error))
        #expect(h.engine.config.doublePressIntervalMS == EngineConfig().doublePressIntervalMS)
        let answer = try JSONDecoder().decode(JSONValue.self, from: Data(h.reloadAnswer(id: .number(9), .failure(error)).dropLast()))
        guard case .object(let o) = answer, case .object(let e)? = o["error"], case .string(let message)? = e["message"] else {
            throw Failure("unexpected answer \(answer)")
        }
        #expect(o["ok"] == .bool(false) && e["code"] == .string("failed"))
        #expect(message.contains("/c.toml:2") && message.contains("the running configuration is unchanged"), "\(message)")
    }

    @Test func aGoodReloadTakesEffect() {
        let h = Self.handler()
        var config = EngineConfig()
        config.doublePressIntervalMS = 800
        h.applyReload(.success(config))
        #expect(h.engine.config.doublePressIntervalMS == 800)
    }

    @Test func devicesWaitsForTheFirstProbeThenComesFromTheCache() throws {
        let h = Self.handler()
        var topics: Set<Topic> = []
        guard case .afterProbe = Self.ask(h, #"{"id":1,"cmd":"devices"}"#, topics: &topics) else {
            Issue.record("answered devices with no probe done")
            return
        }
        h.devices = ProbeReport(nodes: [], buttonOnlyReason: "there is no /dev/input")
        let answer = try Self.json(Self.ask(h, #"{"id":2,"cmd":"devices"}"#, topics: &topics))
        guard case .object(let o) = answer, case .object(let result)? = o["result"] else { throw Failure("\(answer)") }
        #expect(result["button_only_reason"] == .string("there is no /dev/input"))
    }

    @Test func aBadLineGetsAnErrorAnswerNotADeferral() throws {
        let h = Self.handler()
        var topics: Set<Topic> = []
        let answer = try Self.json(Self.ask(h, "{nope", topics: &topics))
        guard case .object(let o) = answer else { throw Failure("\(answer)") }
        #expect(o["ok"] == .bool(false))
    }

    @Test func aPenArrivingEndsButtonOnlyModeAndItsRemovalStartsItAgain() throws {
        var reasons: [String] = []
        let h = CommandHandler(config: EngineConfig(), buttonOnlyReason: "no pen yet", tracksPens: true, log: { reasons.append($0) })
        h.handle(TimedPenInput(.deviceAdded(DeviceID(4), DeviceInfo(name: "Pen", kind: .pen)), at: 10))
        #expect(h.buttonOnlyReason == nil)
        h.handle(TimedPenInput(.deviceRemoved(DeviceID(4)), at: 20))
        #expect(h.buttonOnlyReason == "the last pen was removed")
        #expect(reasons.count == 2)
    }

    @Test func aRepeatedStatusFollowsEveryChange() throws {
        let h = Self.handler()
        var topics: Set<Topic> = []
        func canvasState() throws -> JSONValue? {
            guard case .object(let o) = try Self.json(Self.ask(h, #"{"id":1,"cmd":"status"}"#, topics: &topics)),
                  case .object(let r)? = o["result"], case .object(let c)? = r["canvas"] else { throw Failure("no canvas") }
            return c["state"]
        }
        #expect(try canvasState() == .string("minimized"))
        #expect(try canvasState() == .string("minimized"))
        _ = Self.ask(h, #"{"id":2,"cmd":"toggle"}"#, topics: &topics)
        #expect(try canvasState() == .string("opening"), "a cached status never hides a change")
        var config = EngineConfig()
        config.debounceMS = 40
        h.applyReload(.success(config))
        guard case .object(let o) = try Self.json(Self.ask(h, #"{"id":3,"cmd":"status"}"#, topics: &topics)),
              case .object(let r)? = o["result"], case .object(let c)? = r["config"] else { throw Failure("no config") }
        #expect(c["debounce_ms"] == .number(40))
    }
}

@Suite("Command handler during a replay")
struct ReplayDevicesTests {
    func field(_ value: JSONValue, _ keys: String...) -> JSONValue? {
        var current: JSONValue? = value
        for key in keys {
            guard case .object(let o)? = current else { return nil }
            current = o[key]
        }
        return current
    }

    @Test func statusGivesEachPenItsSizeAndWhetherItIsADisplaySoThatAnOverlayFindsItsMonitor() throws {
        let h = CommandHandler(config: EngineConfig(), buttonOnlyReason: "no pen", tracksPens: false, log: { _ in })
        h.handle(TimedPenInput(.deviceAdded(DeviceID(1), DeviceInfo(name: "Cintiq", kind: .pen,
                                                                    area: PenArea(widthMM: 265.09999, heightMM: 167.2, direct: true,
                                                                                  bustype: 0x03, vendor: 0x056a))), at: 10))
        h.handle(TimedPenInput(.deviceAdded(DeviceID(2), DeviceInfo(name: "Cintiq Pad", kind: .pad)), at: 10))
        var topics: Set<Topic> = []
        let status = try CommandHandlerTests.json(CommandHandlerTests.ask(h, #"{"id":1,"cmd":"status"}"#, topics: &topics))
        #expect(field(status, "result", "input", "devices") == .array([
            .object(["device": .number(1), "name": .string("Cintiq"), "kind": .string("pen"),
                     "width_mm": .number(265.1), "height_mm": .number(167.2), "direct": .bool(true),
                     "bus": .string("usb"), "vendor": .number(1386)]),
            .object(["device": .number(2), "name": .string("Cintiq Pad"), "kind": .string("pad")]),
        ]))
    }

    @Test func devicesAnswersWithTheRecordedPenAsStatusDoes() throws {
        let h = CommandHandler(config: EngineConfig(), buttonOnlyReason: "input comes from a recording", tracksPens: false,
                               recording: "/r/pen.events", log: { _ in })
        var topics: Set<Topic> = []
        let before = try CommandHandlerTests.json(CommandHandlerTests.ask(h, #"{"id":1,"cmd":"devices"}"#, topics: &topics))
        #expect(field(before, "result", "nodes") == .array([]))
        #expect(field(before, "result", "button_only_reason") == .string("/r/pen.events has not brought its pen in yet"))
        h.handle(TimedPenInput(.deviceAdded(DeviceID(1), DeviceInfo(name: "Cintiq Pen (recording)", kind: .pen)), at: 10))
        let after = try CommandHandlerTests.json(CommandHandlerTests.ask(h, #"{"id":2,"cmd":"devices"}"#, topics: &topics))
        #expect(field(after, "result", "nodes") == .array([.object(["path": .string("/r/pen.events"), "name": .string("Cintiq Pen (recording)"), "kind": .string("pen")])]))
        #expect([nil, .null].contains(field(after, "result", "button_only_reason")))
    }
}
