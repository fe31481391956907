// SPDX-License-Identifier: MIT
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Codable, Sendable {
        case badJSON = "bad-json"
        case badRequest = "bad-request"
        case unknownCommand = "unknown-command"
        case lineTooLong = "line-too-long"
        case refused
        case failed
    }
    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
