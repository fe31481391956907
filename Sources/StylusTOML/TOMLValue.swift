// SPDX-License-Identifier: MIT

/// A value of a parsed TOML document. Dates and times are not among them:
/// stylusd's settings have none, and the parser refuses them by line.
public enum TOMLValue: Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var int: Int? { if case .integer(let i) = self { Int(exactly: i) } else { nil } }
    public var double: Double? { if case .float(let d) = self { d } else { nil } }
    public var bool: Bool? { if case .boolean(let b) = self { b } else { nil } }
    public var array: [TOMLValue]? { if case .array(let a) = self { a } else { nil } }
    public var table: TOMLTable? { if case .table(let t) = self { t } else { nil } }

    /// What the value is, in the words config errors use ("found string").
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "floating-point number"
        case .boolean: "bool"
        case .array: "array"
        case .table: "table"
        }
    }
}

extension TOMLValue: Equatable {
    /// NaN equals NaN here: two trees read from `x = nan` are the same document.
    public static func == (a: TOMLValue, b: TOMLValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x.utf8.elementsEqual(y.utf8)
        case (.integer(let x), .integer(let y)): x == y
        case (.float(let x), .float(let y)): x == y || (x.isNaN && y.isNaN)
        case (.boolean(let x), .boolean(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.table(let x), .table(let y)): x == y
        default: false
        }
    }
}

/// A TOML table: keys compare byte for byte (TOML does not normalise
/// Unicode, Swift's String equality does) and list in byte order.
public struct TOMLTable: Sendable, Equatable {
    private var values: [Key: TOMLValue] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? {
        get { values[Key(key)] }
        set { values[Key(key)] = newValue }
    }

    public var keys: [String] {
        values.keys.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }.map(\.text)
    }

    public var count: Int { values.count }

    struct Key: Hashable, Sendable {
        let bytes: [UInt8]
        var text: String { String(decoding: bytes, as: UTF8.self) }
        init(_ text: String) { bytes = Array(text.utf8) }
    }
}
