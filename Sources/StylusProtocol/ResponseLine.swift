// SPDX-License-Identifier: MIT
/// A response, whose result is decoded into the type the caller expects.
public struct ResponseLine: Equatable, Sendable {
    public var id: JSONValue
    public var ok: Bool
    var raw: [UInt8]

    private struct Envelope<R: Decodable>: Decodable {
        var result: R?
        var error: Response.ErrorBody?
    }

    /// The result as `R`, or the daemon's error.
    public func result<R: Decodable>(as type: R.Type = R.self) throws(ProtocolError) -> R {
        let envelope: Envelope<R>
        do {
            envelope = try ProtocolV1.decode(Envelope<R>.self, from: raw)
        } catch {
            throw ProtocolError(code: .badJSON, message: "the daemon's answer does not match \(R.self): \(error)")
        }
        if ok, let result = envelope.result { return result }
        if !ok, let body = envelope.error {
            throw ProtocolError(code: ProtocolError.Code(rawValue: body.code) ?? .failed, message: body.message)
        }
        throw ProtocolError(code: .badJSON, message: "the daemon's answer has neither a result nor an error")
    }
}
