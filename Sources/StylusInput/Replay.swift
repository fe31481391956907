import StylusCore

/// `stylusd replay`: a recording (or a headerless event file plus its
/// description) through the engine, one event at a time to `onEvent`.
public enum RecordingPlayer {
    public struct Summary: Sendable {
        public var evdevEvents: Int
        public var doublePresses: Int
        public var finalCanvas: CanvasState
        public var strokes: Int
    }

    public static func play(file: String, descriptionFile: String?, config: EngineConfig,
                            onEvent: (EngineEvent) -> Void) throws -> Summary {
        var given: DeviceDescription?
        if let descriptionFile {
            given = try EvemuReader.description(of: readFileBytes(descriptionFile), file: descriptionFile)
        }
        let bytes = try readFileBytes(file)
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
