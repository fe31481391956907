// SPDX-License-Identifier: MIT
/// One line from the daemon, as a client reads it: an event or a response.
public enum ServerLine: Sendable {
    case event(EventLine)
    case response(ResponseLine)

    /// Decodes one line (with or without its newline), with the parser the
    /// daemon reads requests with: a client that follows the pen at 200 Hz
    /// spends a tenth of what JSONDecoder into JSONValue costs.
    public static func decode(_ raw: [UInt8]) -> ServerLine? {
        let body = raw.last == 0x0a ? Array(raw.dropLast()) : raw
        guard case .object(let object)? = try? JSONParser.parse(body) else { return nil }
        if case .string(let name)? = object["event"] {
            return .event(EventLine(name: name, fields: object, raw: body + [0x0a]))
        }
        return .response(ResponseLine(id: object["id"] ?? .null, ok: object["ok"] == .bool(true), raw: body))
    }
}
