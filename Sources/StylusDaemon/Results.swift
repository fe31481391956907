import StylusCore
import StylusInput

/// What `status` and the state-changing commands answer.
struct StatusResult: Encodable {
    struct CanvasInfo: Encodable {
        var state: String
        var hasContent: Bool
        var strokeCount: Int
        var pointCount: Int
        var full: Bool
        enum CodingKeys: String, CodingKey {
            case state, hasContent = "has_content", strokeCount = "stroke_count", pointCount = "point_count", full
        }
    }
    struct PrecisionInfo: Encodable {
        var enabled: Bool
        var active: Bool
    }
    struct DeviceInfoResult: Encodable {
        var device: UInt32
        var name: String
        var kind: String
    }
    struct InputInfo: Encodable {
        var mode: String
        var reason: String?
        var devices: [DeviceInfoResult]
    }
    struct ConfigInfo: Encodable {
        var intervalMS: Int
        var debounceMS: Int
        var transitionMS: Int
        enum CodingKeys: String, CodingKey {
            case intervalMS = "interval_ms", debounceMS = "debounce_ms", transitionMS = "transition_ms"
        }
    }

    var protocolVersion = ProtocolV1.version
    var canvas: CanvasInfo
    var precision: PrecisionInfo
    var input: InputInfo
    var config: ConfigInfo
    var changed: Bool?
    var reason: String?

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol", canvas, precision, input, config, changed, reason
    }

    init(engine: Engine, buttonOnlyReason: String?, changed: Bool? = nil, reason: String? = nil) {
        let c = engine.canvas
        canvas = CanvasInfo(state: c.state.rawValue, hasContent: c.hasContent, strokeCount: c.strokes.count,
                            pointCount: c.pointCount, full: c.isFull)
        precision = PrecisionInfo(enabled: engine.precisionEnabled, active: engine.precisionActive)
        let devices = engine.deviceIDs.compactMap { id in
            engine.deviceInfo(id).map { DeviceInfoResult(device: id.rawValue, name: $0.name, kind: $0.kind.rawValue) }
        }
        let hasPen = devices.contains { $0.kind == "pen" }
        input = InputInfo(mode: hasPen ? "pen" : "button-only", reason: hasPen ? nil : buttonOnlyReason, devices: devices)
        config = ConfigInfo(intervalMS: engine.config.doublePressIntervalMS, debounceMS: engine.config.debounceMS,
                            transitionMS: engine.config.transitionMS)
        self.changed = changed
        self.reason = reason
    }
}

/// `strokes`: every stroke, each point as [x, y, pressure, tilt_x, tilt_y, time_us].
struct StrokesResult: Encodable {
    struct Point: Encodable {
        var point: StrokePoint
        func encode(to encoder: Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(point.x)
            try c.encode(point.y)
            try c.encode(point.pressure)
            try c.encode(point.tiltX)
            try c.encode(point.tiltY)
            try c.encode(point.time)
        }
    }
    struct StrokeResult: Encodable {
        var device: UInt32
        var tool: String
        var points: [Point]
    }
    var canvas: String
    var strokes: [StrokeResult]

    init(canvas: Canvas) {
        self.canvas = canvas.state.rawValue
        strokes = canvas.strokes.map { StrokeResult(device: $0.device.rawValue, tool: $0.tool.rawValue, points: $0.points.map(Point.init)) }
    }
}

struct TopicsResult: Encodable {
    var topics: [String]
}

struct HelloEvent: Encodable {
    var event = "hello"
    var protocolVersion = ProtocolV1.version
    var daemon = "stylusd"
    var version: String
    var pid: Int32
    var topics = Topic.allCases.map(\.rawValue)
    enum CodingKeys: String, CodingKey {
        case event, protocolVersion = "protocol", daemon, version, pid, topics
    }
}

extension PenSample {
    /// The `pen` topic's per-sample line.
    func jsonLine(into buffer: [UInt8]) -> [UInt8] {
        var w = JSONObjectWriter(into: buffer)
        w.string("event", "pen")
        w.int("device", device.rawValue)
        w.string("tool", tool.rawValue)
        w.double("x", axes.x)
        w.double("y", axes.y)
        w.double("pressure", axes.pressure)
        w.double("tilt_x", axes.tiltX)
        w.double("tilt_y", axes.tiltY)
        w.bool("tip", tipDown)
        w.double("adjusted_x", adjustedX)
        w.double("adjusted_y", adjustedY)
        w.double("scale", scale)
        w.int("time_us", time)
        return w.finishLine()
    }
}
