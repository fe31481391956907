// SPDX-License-Identifier: MIT
import StylusCore

/// `text`: `{"cmd":"text","text":"…","x":0.1,"y":0.2,"size":24,"color":"#3465a4"}`.
/// The shape is checked here; what the engine refuses (limits, the anchor's
/// range, the canvas's state) it refuses itself, for a command built in code too.
extension ClientCommand {
    static func text(_ fields: [String: JSONValue]) throws(ProtocolError) -> TextRequest {
        func bad(_ message: String) -> ProtocolError { ProtocolError(code: .badRequest, message: message) }
        guard case .string(let string)? = fields["text"] else {
            throw bad("text needs \"text\": a string of 1-\(StrokeText.maxLength) characters\(fields["text"].map { ", not \(quoted($0))" } ?? "")")
        }
        var anchor: [Double] = []
        for key in ["x", "y"] {
            guard case .number(let n)? = fields[key] else {
                throw bad("text needs \"\(key)\": a number from 0 to 1 (where its first line's top left goes)\(fields[key].map { ", not \(quoted($0))" } ?? "")")
            }
            anchor.append(n)
        }
        var size: Double?
        if let value = fields["size"] {
            guard case .number(let n) = value else {
                throw bad("\"size\" must be a number from \(Int(StrokeText.sizeRange.lowerBound)) to \(Int(StrokeText.sizeRange.upperBound)), not \(quoted(value))")
            }
            size = n
        }
        var color: StrokeColor?
        if let value = fields["color"] {
            guard case .string(let name) = value else { throw bad("\"color\" must be a colour's name or #rrggbb, not \(quoted(value))") }
            switch ColorName.parse(name) {
            case .success(let c): color = c
            case .failure(let error): throw bad("\"color\": \(error.message)")
            }
        }
        return TextRequest(string: string, x: anchor[0], y: anchor[1], size: size, color: color)
    }

    static func fields(of request: TextRequest) -> [String: JSONValue] {
        var fields: [String: JSONValue] = ["text": .string(request.string), "x": .number(request.x), "y": .number(request.y)]
        if let size = request.size { fields["size"] = .number(size) }
        if let color = request.color { fields["color"] = .string(color.hex) }
        return fields
    }
}
