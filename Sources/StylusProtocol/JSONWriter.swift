// SPDX-License-Identifier: MIT

/// The one JSON writer of every line the daemon writes by hand: events, pen
/// samples, `status`, the ids of cached responses. Objects, arrays and
/// scalars into one buffer, keys in the order the caller writes them (for
/// `status`, the order JSONEncoder's `.sortedKeys` would); strings through
/// `JSONString`, numbers through `JSONNumber`, so a value reads the same in
/// every line.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]
    /// Whether the container being written still has no element.
    private var empty = true

    /// A writer for one value (`status`, an id).
    public init() {
        bytes = []
        bytes.reserveCapacity(1024)
    }

    /// A writer for one line: an object already open, its members written
    /// with the keyed helpers, closed by `finishLine()`. The line goes after
    /// `buffer`'s bytes, in its storage, so a caller writing a line per pen
    /// sample reuses one buffer.
    public init(lineInto buffer: [UInt8]) {
        bytes = buffer
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the line's object and ends the line.
    public mutating func finishLine() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private mutating func separate() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
    }

    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        empty = true   // the value that follows takes no comma
    }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        empty = true
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        empty = false
    }

    public mutating func array<S: Sequence>(_ elements: S, _ body: (inout JSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        empty = true
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        empty = false
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    public mutating func int<I: BinaryInteger>(_ value: I) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// By `JSONNumber`'s rule: `1`, not `1.0`; null when not finite, where
    /// JSONEncoder would refuse the whole response.
    public mutating func double(_ value: Double) {
        separate()
        JSONNumber.append(value, to: &bytes)
    }

    public mutating func string(_ value: String) {
        separate()
        JSONString.appendQuoted(value, to: &bytes)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// A scalar JSON value as JSONEncoder writes it; false (nothing written)
    /// for an array or an object, whose key order is the encoder's to keep.
    mutating func scalar(_ value: JSONValue) -> Bool {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        // As JSONValue encodes a number: whole ones below 9e15 as integers (-0 as 0).
        case .number(let n) where n == n.rounded() && abs(n) < 9e15: int(Int64(n))
        case .number(let n): double(n)
        case .string(let text): string(text)
        case .array, .object: return false
        }
        return true
    }
}
