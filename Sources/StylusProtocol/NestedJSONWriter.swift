// SPDX-License-Identifier: MIT
import StylusCore

/// Objects, arrays and scalars into one buffer; the caller writes keys in
/// the order JSONEncoder's `.sortedKeys` would.
struct NestedJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the container being written still has no element.
    private var empty = true

    init() {
        bytes.reserveCapacity(1024)
    }

    private mutating func separate() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
    }

    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        empty = true   // the value that follows takes no comma
    }

    mutating func object(_ body: (inout NestedJSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        empty = true
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        empty = false
    }

    mutating func array<S: Sequence>(_ elements: S, _ body: (inout NestedJSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        empty = true
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        empty = false
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    mutating func int<I: BinaryInteger>(_ value: I) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// As JSONEncoder writes a Double: the shortest form that reads back,
    /// without a trailing ".0". Non-finite values cannot be JSON; JSONEncoder
    /// refuses them, and the daemon's `Response` then sends `{}`: null here.
    mutating func double(_ value: Double) {
        separate()
        guard value.isFinite else { return bytes.append(contentsOf: "null".utf8) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A scalar JSON value as JSONEncoder writes it; false (nothing written)
    /// for an array or an object, whose key order is the encoder's to keep.
    mutating func scalar(_ value: JSONValue) -> Bool {
        switch value {
        case .null: separate(); bytes.append(contentsOf: "null".utf8)
        case .bool(let b): bool(b)
        // As JSONValue encodes a number: whole ones below 9e15 as integers (-0 as 0).
        case .number(let n) where n == n.rounded() && abs(n) < 9e15: int(Int64(n))
        case .number(let n): double(n)
        case .string(let text): string(text)
        case .array, .object: return false
        }
        return true
    }

    mutating func string(_ value: String) {
        separate()
        JSONString.appendQuoted(value, to: &bytes)
    }
}
