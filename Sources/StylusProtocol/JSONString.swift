// SPDX-License-Identifier: MIT

/// The one JSON string escaper of every line the daemon writes by hand
/// (events, `status`, ids, the state file): byte for byte what JSONEncoder
/// writes with `.withoutEscapingSlashes`, so that a hand-written line and an
/// encoded one never differ (`JSONStringTests` compares the two).
public enum JSONString {
    /// Appends `value` in quotes: the quote and the backslash escaped,
    /// control characters by letter where JSON has one (`\b \f \n \r \t`),
    /// the rest as `\u00XX`; everything else, "/" and non-ASCII included, as it is.
    public static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for unit in value.utf8 {
            switch unit {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0c: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0a: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0d: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hexDigits[Int(unit >> 4)], hexDigits[Int(unit & 0xf)]])
            default:
                bytes.append(unit)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
