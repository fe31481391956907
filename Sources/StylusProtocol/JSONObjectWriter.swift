// SPDX-License-Identifier: MIT
/// Writes one flat JSON object into a byte buffer, keys in the order given:
/// the events' lines. Only what events need: strings, integers, doubles,
/// booleans, null and arrays of strings.
public struct JSONObjectWriter {
    public private(set) var bytes: [UInt8]
    private var first = true

    public init(into buffer: [UInt8] = []) {
        bytes = buffer
        bytes.append(UInt8(ascii: "{"))
    }

    private mutating func key(_ key: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func string(_ k: StaticString, _ value: String) {
        key(k)
        JSONString.appendQuoted(value, to: &bytes)
    }

    public mutating func int<I: BinaryInteger>(_ k: StaticString, _ value: I) {
        key(k)
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ k: StaticString, _ value: Bool) {
        key(k)
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
    }

    /// Finite doubles are written in Swift's shortest round-trip form;
    /// non-finite ones (which JSON cannot carry) as null.
    public mutating func double(_ k: StaticString, _ value: Double) {
        key(k)
        if value.isFinite {
            bytes.append(contentsOf: value.description.utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// An array of strings: the palette's colours in a `tool` event.
    public mutating func strings(_ k: StaticString, _ values: [String]) {
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONString.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func null(_ k: StaticString) {
        key(k)
        bytes.append(contentsOf: "null".utf8)
    }

    /// Closes the object and ends the line.
    public mutating func finishLine() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
