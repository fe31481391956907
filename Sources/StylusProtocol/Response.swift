// SPDX-License-Identifier: MIT
import FoundationEssentials

/// Responses: `{"id":…,"ok":true,"result":…}` or `{"id":…,"ok":false,"error":{"code":…,"message":…}}`.
public enum Response {
    struct Success<R: Encodable>: Encodable {
        var id: JSONValue
        var ok = true
        var result: R
    }

    struct Failure: Encodable {
        var id: JSONValue
        var ok = false
        var error: ErrorBody
    }

    struct ErrorBody: Codable {
        var code: String
        var message: String
    }

    public static func success<R: Encodable>(id: JSONValue, _ result: R) -> [UInt8] {
        line(Success(id: id, result: result))
    }

    /// A result encoded once and answered many times (`devices` between
    /// two probes): the same bytes `success(id:_:)` gives, without encoding
    /// the result again. Keys are sorted, so `id` and `ok` come first.
    public static func success(id: JSONValue, encodedResult: EncodedResult) -> [UInt8] {
        var bytes = Array(#"{"id":"#.utf8)
        // By hand for the ids clients send (numbers, strings): through JSONEncoder
        // this was a twentieth of the loop's time under a flood (docs/SECURITY.md).
        var scalar = JSONWriter()
        if scalar.scalar(id) {
            bytes += scalar.bytes
        } else {
            bytes += (try? Array(ProtocolV1.encoder.encode(id))) ?? Array("null".utf8)
        }
        bytes += Array(#","ok":true,"result":"#.utf8)
        bytes += encodedResult.bytes
        bytes += Array("}\n".utf8)
        return bytes
    }

    /// A result's JSON, kept to be answered again.
    public struct EncodedResult: Sendable {
        public let bytes: [UInt8]
        public init<R: Encodable>(_ result: R) {
            bytes = (try? Array(ProtocolV1.encoder.encode(result))) ?? Array("{}".utf8)
        }
    }

    public static func failure(id: JSONValue, _ error: ProtocolError) -> [UInt8] {
        line(Failure(id: id, error: .init(code: error.code.rawValue, message: error.message)))
    }

    /// One JSON line (with its newline) for any value: responses, `hello`, requests.
    public static func line<T: Encodable>(_ value: T) -> [UInt8] {
        // Encoding these plain structs cannot fail; a bug would show as an empty object.
        var bytes = (try? Array(ProtocolV1.encoder.encode(value))) ?? Array("{}".utf8)
        bytes.append(0x0a)
        return bytes
    }
}
