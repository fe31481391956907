// SPDX-License-Identifier: MIT
/// A request that could not be decoded; the id goes with the error when it could be read.
public struct RequestFailure: Error, Equatable, Sendable {
    public var id: JSONValue
    public var error: ProtocolError
}
