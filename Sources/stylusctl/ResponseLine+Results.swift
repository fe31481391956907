// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

extension JSONValue {
    subscript(_ key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var number: Double? { if case .number(let n) = self { n } else { nil } }
    var array: [JSONValue] { if case .array(let a) = self { a } else { [] } }
}

extension ResponseLine {
    /// The result exactly as the daemon sent it (for `--json`), or its error.
    func raw() throws(StylusClientError) -> JSONValue { try typed(JSONValue.self) }

    func typed<R: Decodable>(_ type: R.Type) throws(StylusClientError) -> R {
        do {
            return try result(as: R.self)
        } catch {
            // The daemon's messages for a refusal, a bad value and a failure say all a user needs; the code
            // only helps where stylusctl and stylusd disagree about the protocol (an unknown command).
            let plain: Set<ProtocolError.Code> = [.refused, .badRequest, .failed]
            throw ok || error.code == .badJSON ? StylusClientError(.protocolViolation, error.message)
                : StylusClientError(.commandFailed(error.code), plain.contains(error.code) ? error.message : "\(error.code.rawValue): \(error.message)")
        }
    }
}
