// SPDX-License-Identifier: MIT
public struct Request: Equatable, Sendable {
    public var id: JSONValue
    public var command: ClientCommand

    public init(id: JSONValue, command: ClientCommand) {
        self.id = id
        self.command = command
    }
}

extension Request {
    /// The request as one line, keys sorted: what a client sends.
    public var line: [UInt8] {
        var object = command.fields
        object["id"] = id
        object["cmd"] = .string(command.name.rawValue)
        return Response.line(JSONValue.object(object))
    }

    /// Decodes one line (without its newline). On failure, the id (when it
    /// could be read) goes with the error so the response can carry it.
    public static func decode(_ line: [UInt8]) -> Result<Request, RequestFailure> {
        func bad(_ code: ProtocolError.Code, _ message: String, id: JSONValue = .null) -> Result<Request, RequestFailure> {
            .failure(RequestFailure(id: id, error: ProtocolError(code: code, message: message)))
        }
        if let depth = nestingExceeds(line, ProtocolV1.maxNesting) {
            return bad(.badJSON, "nested deeper than \(ProtocolV1.maxNesting) levels (at byte \(depth))")
        }
        let object: [String: JSONValue]
        do throws(JSONParser.Failure) {
            let value = try JSONParser.parse(line, maxDepth: ProtocolV1.maxNesting)
            guard case .object(let o) = value else { return bad(.badRequest, "a request is a JSON object, not \(value.typeName)") }
            object = o
        } catch {
            return bad(.badJSON, "not valid JSON (or not UTF-8): \(error.reason) at byte \(error.offset)")
        }
        let id = object["id"] ?? .null
        guard let cmdValue = object["cmd"] else { return bad(.badRequest, "missing \"cmd\"", id: id) }
        guard case .string(let cmd) = cmdValue else { return bad(.badRequest, "\"cmd\" must be a string, not \(cmdValue.typeName)", id: id) }
        guard let name = CommandName(rawValue: cmd) else {
            return bad(.unknownCommand, "unknown command \"\(cmd)\"; commands are \(CommandName.list)", id: id)
        }
        do {
            return .success(Request(id: id, command: try ClientCommand(name: name, fields: object)))
        } catch {
            return .failure(RequestFailure(id: id, error: error))
        }
    }

    /// The byte offset where nesting first exceeds `limit`, outside strings.
    static func nestingExceeds(_ bytes: [UInt8], _ limit: Int) -> Int? {
        var depth = 0, inString = false, escaped = false
        for (i, b) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if b == 0x5c { escaped = true } else if b == 0x22 { inString = false }
                continue
            }
            switch b {
            case 0x22: inString = true
            case 0x5b, 0x7b:
                depth += 1
                if depth > limit { return i }
            case 0x5d, 0x7d: depth -= 1
            default: break
            }
        }
        return nil
    }
}
