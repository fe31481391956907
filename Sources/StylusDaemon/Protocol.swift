import FoundationEssentials
import StylusCore

/// Protocol v1: newline-delimited JSON over a Unix stream socket.
public enum ProtocolV1 {
    public static let version = 1
    public static let maxLineBytes = 64 * 1024
    /// Requests are flat; anything nested deeper is refused before decoding.
    static let maxNesting = 16
}

public enum Topic: String, CaseIterable, Codable, Sendable {
    case canvas
    case doublePress = "double-press"
    case precision
    case device
    case pen

    /// Which subscription an engine event belongs to.
    public init(_ event: EngineEvent) {
        switch event {
        case .canvas, .stroke, .canvasFull: self = .canvas
        case .doublePress: self = .doublePress
        case .precision: self = .precision
        case .device: self = .device
        case .proximity: self = .pen
        }
    }
}

public enum ClientCommand: Equatable, Sendable {
    case status, toggle, open, minimize, ack, strokes, clear, devices, reload
    case precision(PrecisionRequest)
    case subscribe([Topic])
    case unsubscribe([Topic])
}

public struct ProtocolError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        case badJSON = "bad-json"
        case badRequest = "bad-request"
        case unknownCommand = "unknown-command"
        case lineTooLong = "line-too-long"
        case refused
        case failed
    }
    public var code: Code
    public var message: String
}

/// A request that could not be decoded; the id goes with the error when it could be read.
public struct RequestFailure: Error, Equatable, Sendable {
    public var id: JSONValue
    public var error: ProtocolError
}

public struct Request: Equatable, Sendable {
    public var id: JSONValue
    public var command: ClientCommand
}

extension Request {
    static let commandNames = ["status", "toggle", "open", "minimize", "ack", "strokes", "clear", "precision",
                               "subscribe", "unsubscribe", "devices", "reload"]

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
        do {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(line))
            guard case .object(let o) = value else { return bad(.badRequest, "a request is a JSON object, not \(value.typeName)") }
            object = o
        } catch {
            return bad(.badJSON, "not valid JSON (or not UTF-8)")
        }
        let id = object["id"] ?? .null
        guard let cmdValue = object["cmd"] else { return bad(.badRequest, "missing \"cmd\"", id: id) }
        guard case .string(let cmd) = cmdValue else { return bad(.badRequest, "\"cmd\" must be a string, not \(cmdValue.typeName)", id: id) }
        func topics() -> Result<[Topic], ProtocolError> {
            guard let value = object["topics"] else { return .success(Topic.allCases.filter { $0 != .pen }) }
            guard case .array(let items) = value else {
                return .failure(ProtocolError(code: .badRequest, message: "\"topics\" must be an array of strings"))
            }
            var result: [Topic] = []
            for item in items {
                guard case .string(let name) = item, let topic = Topic(rawValue: name) else {
                    return .failure(ProtocolError(code: .badRequest, message: "unknown topic \(item); topics are \(Topic.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
                result.append(topic)
            }
            return .success(result)
        }
        let command: ClientCommand
        switch cmd {
        case "status": command = .status
        case "toggle": command = .toggle
        case "open": command = .open
        case "minimize": command = .minimize
        case "ack": command = .ack
        case "strokes": command = .strokes
        case "clear": command = .clear
        case "devices": command = .devices
        case "reload": command = .reload
        case "precision":
            guard case .string(let action)? = object["action"], let request = PrecisionRequest(rawValue: action) else {
                return bad(.badRequest, "precision needs \"action\": \"enable\", \"disable\" or \"toggle\"", id: id)
            }
            command = .precision(request)
        case "subscribe", "unsubscribe":
            switch topics() {
            case .success(let t): command = cmd == "subscribe" ? .subscribe(t) : .unsubscribe(t)
            case .failure(let e): return .failure(RequestFailure(id: id, error: e))
            }
        default:
            return bad(.unknownCommand, "unknown command \"\(cmd)\"; commands are \(commandNames.joined(separator: ", "))", id: id)
        }
        return .success(Request(id: id, command: command))
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

/// Responses: `{"id":…,"ok":true,"result":…}` or `{"id":…,"ok":false,"error":{"code":…,"message":…}}`.
package enum Response {
    private struct Success<R: Encodable>: Encodable {
        var id: JSONValue
        var ok = true
        var result: R
    }

    private struct Failure: Encodable {
        struct Body: Encodable { var code: String; var message: String }
        var id: JSONValue
        var ok = false
        var error: Body
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return e
    }()

    package static func success<R: Encodable>(id: JSONValue, _ result: R) -> [UInt8] {
        line(Success(id: id, result: result))
    }

    package static func failure(id: JSONValue, _ error: ProtocolError) -> [UInt8] {
        line(Failure(id: id, error: .init(code: error.code.rawValue, message: error.message)))
    }

    static func line<T: Encodable>(_ value: T) -> [UInt8] {
        // Encoding these plain structs cannot fail; a bug would show as an empty object.
        var bytes = (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
        bytes.append(0x0a)
        return bytes
    }
}
