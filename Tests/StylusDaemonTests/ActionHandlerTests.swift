// SPDX-License-Identifier: MIT
import FoundationEssentials
@testable import StylusCore
@testable import StylusDaemon
import StylusProtocol
import StylusConfig
import Testing

/// What the handler does for the actions the engine hands to the shell: a
/// preset switch (status follows), and an action the shell could not
/// perform turning its double press into "ignored".
@Suite("actions in the command handler")
struct ActionHandlerTests {
    static func status(_ h: CommandHandler) throws -> StatusResult {
        var topics: Set<Topic> = []
        guard case .now(let bytes) = h.answer(Array(#"{"id":1,"cmd":"status"}"#.utf8), topics: &topics, now: 1) else {
            throw CommandHandlerTests.Failure("deferred")
        }
        struct Reply: Decodable { var result: StatusResult }
        return try JSONDecoder().decode(Reply.self, from: Data(bytes)).result
    }

    @Test func aPresetSwitchChangesStatusAndKeepsWhatTheFileSet() throws {
        var config = EngineConfig()
        config.debounceMS = 30
        config.setInFile = [.debounce]
        config.bind(.side(.stylus3), to: .preset("fast"))
        let h = CommandHandler(config: config, buttonOnlyReason: nil, tracksPens: false, log: { _ in })
        #expect(try Self.status(h).config.preset == "default")
        #expect(h.switchPreset(to: "fast") == nil)
        let after = try Self.status(h).config
        #expect(after.preset == "fast" && after.intervalMS == 350 && after.transitionMS == 150)
        #expect(after.debounceMS == 30, "the file's own debounce_ms stays")
        #expect(after.bindings?.contains(StatusResult.BindingInfo(button: "BTN_STYLUS3", action: "preset:fast")) == true)
        #expect(h.switchPreset(to: "fast") == "preset fast is already running")
        #expect(h.switchPreset(to: "default") == nil)
        #expect(try Self.status(h).config.intervalMS == 500)
    }

    @Test func statusSaysWhyAnActionCannotWorkHere() throws {
        var config = EngineConfig()
        config.bind(.side(.stylus2), to: .key(KeyChord(modifiers: [29], key: 44)))
        let h = CommandHandler(config: config, buttonOnlyReason: nil, tracksPens: false, log: { _ in })
        h.actionUnavailable = { $0.form == .key ? "no virtual keyboard: the fix" : nil }
        let bindings = try #require(try Self.status(h).config.bindings)
        #expect(bindings == [
            StatusResult.BindingInfo(button: "BTN_STYLUS", action: "toggle-canvas"),
            StatusResult.BindingInfo(button: "BTN_STYLUS2", action: "key:LEFTCTRL+Z", unavailable: "no virtual keyboard: the fix"),
        ])
    }

    @Test func anIgnoredRequestRewritesItsDoublePressEvent() {
        var config = EngineConfig()
        config.bind(.side(.stylus2), to: .exec("true"))
        let h = CommandHandler(config: config, buttonOnlyReason: nil, tracksPens: false, log: { _ in })
        let pen = DeviceID(1)
        h.handle(TimedPenInput(.deviceAdded(pen, DeviceInfo(name: "p", kind: .pen)), at: 1_000))
        h.handle(TimedPenInput(.proximityIn(pen, Tool(type: .pen, serial: 0), PenAxes(x: 0.5, y: 0.5)), at: 2_000))
        for (t, pressed) in [(100_000, true), (180_000, false), (400_000, true)] as [(Int64, Bool)] {
            h.handle(TimedPenInput(.button(pen, .side(.stylus2), pressed: pressed), at: t))
        }
        let request = try? #require(h.effects.actionRequests.first)
        guard let request else { return }
        h.ignore(request, reason: "still running")
        guard case .doublePress(let event) = h.effects.events[request.eventIndex] else { Issue.record("not the double press"); return }
        #expect(event.outcome == .ignored(reason: "still running") && event.action == .exec("true"))
    }
}
