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
        let (bytes, given) = try load(file: file, descriptionFile: descriptionFile)
        var replay: RecordingReplay?
        var doublePresses = 0
        func count(_ event: EngineEvent) {
            if case .doublePress = event { doublePresses += 1 }
            onEvent(event)
        }
        try EvemuReader.read(bytes, file: file, description: given, onStart: { description in
            replay = RecordingReplay(description: description, config: config)
        }, onEvent: { type, code, value, time in
            replay!.feed(type: type, code: code, value: value, time: time, onEvent: count)
        })
        replay!.finish(onEvent: count)
        return Summary(evdevEvents: replay!.evdevEventCount, doublePresses: doublePresses,
                       finalCanvas: replay!.engine.canvas.state, strokes: replay!.engine.canvas.strokes.count)
    }
}

extension RecordingPlayer {
    /// `stylusd replay --output-frames`: the evdev frames filter mode would
    /// write to the clone of the recorded pen, each event to `onFrameEvent`
    /// (a frame ends with its SYN_REPORT), engine events to `onEvent`.
    public static func playFrames(file: String, descriptionFile: String?, config: EngineConfig, filter: FilterConfig,
                                  onEvent: (EngineEvent) -> Void, onFrameEvent: (EvdevEvent) -> Void) throws -> Summary {
        let (bytes, given) = try load(file: file, descriptionFile: descriptionFile)
        var replay: CloneReplay?
        var doublePresses = 0
        func count(_ event: EngineEvent) {
            if case .doublePress = event { doublePresses += 1 }
            onEvent(event)
        }

        func frames(_ events: [EvdevEvent]) { for e in events { onFrameEvent(e) } }
        try EvemuReader.read(bytes, file: file, description: given, onStart: { description in
            replay = CloneReplay(description: description, config: config, filterConfig: filter)
        }, onEvent: { type, code, value, time in
            replay!.feed(type: type, code: code, value: value, time: time, onEvent: count, onFrames: frames)
        })
        replay!.finish(onEvent: count, onFrames: frames)
        let engine = replay!.replay.engine
        return Summary(evdevEvents: replay!.replay.evdevEventCount, doublePresses: doublePresses,
                       finalCanvas: engine.canvas.state, strokes: engine.canvas.strokes.count)
    }

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
