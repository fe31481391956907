// SPDX-License-Identifier: MIT
import StylusCore
import StylusOutput

/// `stylusd replay`: a recording (or a headerless event file plus its
/// description) through the engine, one event at a time to `onEvent`.
public enum RecordingPlayer {
    public struct Summary: Sendable {
        public var evdevEvents: Int
        public var doublePresses: Int
        public var finalCanvas: CanvasState
        public var strokes: Int
    }

    /// The recording's bytes and, for a headerless one, its description.
    private static func load(file: String, descriptionFile: String?) throws -> ([UInt8], DeviceDescription?) {
        let given = try descriptionFile.map { try EvemuReader.description(of: readFile($0), file: $0) }
        return (try readFile(file), given)
    }

    public static func play(file: String, descriptionFile: String?, config: EngineConfig,
                            onEvent: (EngineEvent) -> Void) throws -> Summary {
        try run(file: file, descriptionFile: descriptionFile, onEvent: onEvent, onFrames: { _ in }) {
            EngineReplay(description: $0, config: config)
        }
    }

    /// `stylusd replay --output-frames`: the evdev frames filter mode would
    /// write to the clone of the recorded pen, each event to `onFrameEvent`
    /// (a frame ends with its SYN_REPORT), engine events to `onEvent`.
    public static func playFrames(file: String, descriptionFile: String?, config: EngineConfig, filter: FilterConfig,
                                  onEvent: (EngineEvent) -> Void, onFrameEvent: (EvdevEvent) -> Void) throws -> Summary {
        func frames(_ events: [EvdevEvent]) { for e in events { onFrameEvent(e) } }
        return try run(file: file, descriptionFile: descriptionFile, onEvent: onEvent, onFrames: frames) {
            CloneReplay(description: $0, config: config, filterConfig: filter)
        }
    }

    /// The one way a file is played: read, fed event by event to the replay
    /// `start` makes once the description is known, finished, summed up.
    private static func run<Replay: ReplayTarget>(
        file: String, descriptionFile: String?, onEvent: (EngineEvent) -> Void, onFrames: ([EvdevEvent]) -> Void,
        start: (DeviceDescription) -> Replay
    ) throws -> Summary {
        let (bytes, given) = try load(file: file, descriptionFile: descriptionFile)
        var replay: Replay?
        var doublePresses = 0
        func count(_ event: EngineEvent) {
            if case .doublePress = event { doublePresses += 1 }
            onEvent(event)
        }
        try EvemuReader.read(bytes, file: file, description: given, onStart: { description in
            replay = start(description)
        }, onEvent: { type, code, value, time in
            replay!.feed(type: type, code: code, value: value, time: time, onEvent: count, onFrames: onFrames)
        })
        replay!.finish(onEvent: count, onFrames: onFrames)
        let engine = replay!.replay.engine
        return Summary(evdevEvents: replay!.replay.evdevEventCount, doublePresses: doublePresses,
                       finalCanvas: engine.canvas.state, strokes: engine.canvas.strokes.count)
    }
}

/// What `RecordingPlayer` plays a file through: the engine alone
/// (`EngineReplay`), or the engine and a clone's filter (`CloneReplay`).
protocol ReplayTarget {
    /// The engine's replay, for the summary.
    var replay: EngineReplay { get }
    mutating func feed(type: UInt16, code: UInt16, value: Int32, time: Microseconds,
                       onEvent: (EngineEvent) -> Void, onFrames: ([EvdevEvent]) -> Void)
    mutating func finish(onEvent: (EngineEvent) -> Void, onFrames: ([EvdevEvent]) -> Void)
}

extension CloneReplay: ReplayTarget {}

/// The engine alone writes no clone frames.
extension EngineReplay: ReplayTarget {
    var replay: EngineReplay { self }

    mutating func feed(type: UInt16, code: UInt16, value: Int32, time: Microseconds,
                       onEvent: (EngineEvent) -> Void, onFrames: ([EvdevEvent]) -> Void) {
        feed(type: type, code: code, value: value, time: time, onEvent: onEvent)
    }

    mutating func finish(onEvent: (EngineEvent) -> Void, onFrames: ([EvdevEvent]) -> Void) {
        finish(onEvent: onEvent)
    }
}

extension RecordingPlayer {
    /// One clone event as an evemu "E:" line (the format `evemu-play` reads).
    public static func evemuLine(_ e: EvdevEvent) -> String {
        let seconds = e.time / 1_000_000, micros = e.time % 1_000_000
        let us = String(micros)
        let pad = String(repeating: "0", count: max(0, 6 - us.count))
        return "E: \(seconds).\(pad)\(us) \(hex4(e.type)) \(hex4(e.code)) \(e.value)"
    }

    private static func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
