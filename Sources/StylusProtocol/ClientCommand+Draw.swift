// SPDX-License-Identifier: MIT
import StylusCore

/// `draw`: `{"cmd":"draw","source":"pointer"|"touch","phase":"down"|"move"|"up"|"cancel",
/// "points":[[x,y],[x,y,pressure],…],"aspect":h/w}`. The shape is checked here
/// (a bad request); what the engine refuses (the range of a coordinate, the
/// canvas's state) it refuses itself, so a `draw` command built in code is held to the same rules.
extension ClientCommand {
    static func draw(_ fields: [String: JSONValue]) throws(ProtocolError) -> DrawRequest {
        func bad(_ message: String) -> ProtocolError { ProtocolError(code: .badRequest, message: message) }
        let sources = StrokeSource.drawing
        guard case .string(let name)? = fields["source"], let source = StrokeSource(rawValue: name), sources.contains(source) else {
            throw bad("draw needs \"source\": \(sources.map { "\"\($0.rawValue)\"" }.joined(separator: " or "))\(fields["source"].map { ", not \(quoted($0))" } ?? "")")
        }
        guard case .string(let phaseName)? = fields["phase"], let phase = DrawRequest.Phase(rawValue: phaseName) else {
            throw bad("draw needs \"phase\": \(DrawRequest.Phase.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))\(fields["phase"].map { ", not \(quoted($0))" } ?? "")")
        }
        var points: [DrawRequest.Point] = []
        switch fields["points"] {
        case nil: break
        case .array(let items)?:
            guard items.count <= DrawRequest.maxPoints else {
                throw bad("\(items.count) points in one draw request; at most \(DrawRequest.maxPoints)")
            }
            points.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                guard case .array(let xs) = item, (2...3).contains(xs.count) else {
                    throw bad("points[\(i)] must be [x, y] or [x, y, pressure], not \(quoted(item))")
                }
                var numbers: [Double] = []
                for v in xs {
                    guard case .number(let n) = v else { throw bad("points[\(i)] must hold numbers, not \(quoted(v))") }
                    numbers.append(n)
                }
                points.append(DrawRequest.Point(x: numbers[0], y: numbers[1], pressure: numbers.count == 3 ? numbers[2] : nil))
            }
        case let other?:
            throw bad("\"points\" must be an array of [x, y] or [x, y, pressure], not \(quoted(other))")
        }
        var aspect: Double?
        if let value = fields["aspect"] {
            guard case .number(let n) = value else { throw bad("\"aspect\" must be a number (the canvas's height / width), not \(quoted(value))") }
            aspect = n
        }
        return DrawRequest(source: source, phase: phase, points: points, aspect: aspect)
    }

    static func fields(of request: DrawRequest) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "source": .string(request.source.rawValue), "phase": .string(request.phase.rawValue),
            "points": .array(request.points.map { p in
                .array([.number(p.x), .number(p.y)] + (p.pressure.map { [JSONValue.number($0)] } ?? []))
            }),
        ]
        if let aspect = request.aspect { fields["aspect"] = .number(aspect) }
        return fields
    }
}
