// SPDX-License-Identifier: MIT
import Testing
import StylusCore
import StylusInput
import StylusOutput

/// The bundled recordings (whot/evemu-devices, MIT) through the engine, with
/// what the engine produces handed to a RecordingOutput the way the daemon
/// hands it: after every engine turn, then a flush.
@Suite("Replay through an output")
struct ReplayThroughOutputTests {
    static let folder: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Fixtures/recordings/"
    }()

    static let recordings: [(file: String, desc: String?)] = [
        ("Wacom_Cintiq_12WX.events", nil), ("Wacom_Cintiq_12WX_Pad.buttons-left.events", nil),
        ("Wacom_Cintiq_13HD_touch_Pad.events", nil), ("Wacom_Cintiq_13HD_touch_Pen.events", nil),
        ("Wacom_Cintiq_22HDT_Pen.events", nil), ("Wacom_DTH2242_Pen.events", nil),
        ("Wacom_Express_Key_Remote_Pad.events", nil),
        ("Wacom_Intuos4_6x9.stylus-tap.events", "Wacom_Intuos4_6x9.desc"),
        ("Wacom_Intuos4_6x9.stylus-drag.events", "Wacom_Intuos4_6x9.desc"),
        ("Wacom_Intuos4_6x9.stylus-move.events", "Wacom_Intuos4_6x9.desc"),
        ("Wacom_Intuos4_6x9.pad-buttons.events", "Wacom_Intuos4_6x9.desc"),
    ]

    struct Raw { var type: UInt16, code: UInt16, value: Int32, time: Microseconds }

    static func read(_ file: String, desc: String?) throws -> (DeviceDescription, [Raw]) {
        let given = try desc.map { try EvemuReader.description(of: readFile(folder + $0), file: $0) }
        var description: DeviceDescription?
        var raw: [Raw] = []
        try EvemuReader.read(readFile(folder + file), file: file, description: given,
                             onStart: { description = $0 },
                             onEvent: { raw.append(Raw(type: $0, code: $1, value: $2, time: $3)) })
        return (try #require(description), raw)
    }

    @Test(arguments: recordings.map(\.file))
    func theOutputIsHandedEveryFrameAndButtonInOrder(file: String) throws {
        let (description, raw) = try Self.read(file, desc: Self.recordings.first { $0.file == file }?.desc)

        var replay = EngineReplay(description: description, config: EngineConfig())
        let output = RecordingOutput()
        output.deviceAdded(OutputDevice(id: replay.translator.device, info: replay.translator.deviceInfo))
        var events: [EngineEvent] = []
        let handOver: (Effects) -> Void = { effects in
            events += effects.events
            output.apply(effects)
            output.flush()
        }
        for e in raw { replay.feedEffects(type: e.type, code: e.code, value: e.value, time: e.time, handOver) }
        replay.finishEffects(handOver)

        // The same recording through a translator of its own: the inputs the engine was given.
        var translator = EvdevTranslator(device: replay.translator.device, description: description)
        var inputs: [TimedPenInput] = []
        for e in raw { translator.feed(type: e.type, code: e.code, value: e.value, time: e.time, into: &inputs) }
        var positions: [(PenFrame.Kind, PenAxes?, Microseconds)] = []
        var buttons: [(ButtonID, Bool, Microseconds)] = []
        for timed in inputs {
            switch timed.input {
            case .proximityIn(_, _, let axes): positions.append((.proximityIn, axes, timed.time))
            case .proximityOut: positions.append((.proximityOut, nil, timed.time))
            case .tipDown(_, let axes): positions.append((.tipDown, axes, timed.time))
            case .tipUp(_, let axes): positions.append((.tipUp, axes, timed.time))
            case .motion(_, let axes): positions.append((.motion, axes, timed.time))
            case .button(_, let button, let pressed): buttons.append((button, pressed, timed.time))
            case .deviceAdded, .deviceRemoved: break
            }
        }

        let frames = output.frames
        #expect(frames.count == positions.count)
        for (frame, (kind, axes, time)) in zip(frames, positions) {
            #expect(frame.kind == kind && frame.time == time && frame.device == replay.translator.device)
            if let axes {
                #expect(frame.x == axes.x && frame.y == axes.y)
            }
            #expect(!frame.isAdjusted, "precision is never enabled by these recordings' bindings")
        }
        let explicit = output.buttons.filter { !$0.implicit }
        #expect(explicit.count == buttons.count)
        for (decision, (button, pressed, time)) in zip(explicit, buttons) {
            #expect(decision.button == button && decision.pressed == pressed && decision.time == time)
        }
        let effects = output.effects
        #expect(zip(effects, effects.dropFirst()).allSatisfy { $0.time <= $1.time }, "in time order")

        // Consumed second presses are the double presses; the events are those of a plain replay.
        let doublePresses = events.compactMap { if case .doublePress(let e) = $0 { e } else { nil } }
        #expect(output.buttons.filter { $0.pressed && $0.consumed && $0.verdict != .bounce }.map(\.time) == doublePresses.map(\.time))
        var plain = EngineReplay(description: description, config: EngineConfig())
        var plainEvents: [EngineEvent] = []
        for e in raw { plain.feed(type: e.type, code: e.code, value: e.value, time: e.time) { plainEvents.append($0) } }
        plain.finish { plainEvents.append($0) }
        #expect(events == plainEvents)

        // Canvas changes reach the output in the order the events report them.
        let canvasStates = events.compactMap { if case .canvas(let e) = $0, e.cause != .clear { e.state } else { nil } }
        let handed = effects.compactMap { if case .canvas(let state, _) = $0 { state } else { nil } }
        #expect(handed == canvasStates)
        #expect(output.calls.first == .deviceAdded(OutputDevice(id: replay.translator.device, info: replay.translator.deviceInfo)))
    }

    @Test func theCintiq22HDTDoublePressesConsumeTheirSecondPressAndRelease() throws {
        let (description, raw) = try Self.read("Wacom_Cintiq_22HDT_Pen.events", desc: nil)
        var replay = EngineReplay(description: description, config: EngineConfig())
        let output = RecordingOutput()
        for e in raw { replay.feedEffects(type: e.type, code: e.code, value: e.value, time: e.time) { output.apply($0) } }
        let consumed = output.buttons.filter { if case .doublePress = $0.verdict { true } else { false } }
        #expect(consumed.count == 10, "five double presses, each a press and its release")
        // The third pairs 683.638 with 684.130: the press at 683.177 became a button-drag (EngineReplayTests).
        #expect(consumed.filter(\.pressed).map(\.time) == [1_369_413_645_958_613, 1_369_413_674_459_418, 1_369_413_684_130_337,
                                                           1_369_413_696_352_252, 1_369_413_717_020_101])
        #expect(consumed.filter(\.pressed).map(\.verdict) == [1_369_413_645_468_622, 1_369_413_673_998_426, 1_369_413_683_638_328,
                                                              1_369_413_695_898_248, 1_369_413_716_782_110].map { .doublePress(firstPress: $0) })
    }
}
