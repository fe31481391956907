// SPDX-License-Identifier: MIT
/// A colour as people write it: a CSS colour name, `#rgb` or `#rrggbb`, in
/// any case. The one reader of the config file's colours, the `color:`
/// action, `stylusctl tool --color` and the `tool` command's `color`, so all
/// of them take the same words; what the daemon says back is always the
/// `#rrggbb` the name stands for.
public enum ColorName {
    /// Where the names are listed, for help texts and errors.
    public static let reference = "https://www.w3.org/TR/css-color-4/#named-colors"

    /// Every name, alphabetically.
    public static let names: [String] = table.map(\.name)

    private static let byName: [String: StrokeColor] = Dictionary(uniqueKeysWithValues: table.map {
        ($0.name, StrokeColor(red: UInt8($0.rgb >> 16), green: UInt8($0.rgb >> 8 & 0xff), blue: UInt8($0.rgb & 0xff)))
    })

    /// The colour a name stands for, in any case; nil for anything else.
    public static func color(named name: String) -> StrokeColor? { byName[name.lowercased()] }

    /// Reads a colour; the error says what is wrong and, for a misspelt name,
    /// the nearest names, for a message that already says where it came from.
    public static func parse(_ text: String) -> Result<StrokeColor, ColorError> {
        if text.hasPrefix("#") {
            let digits = Array(text.utf8.dropFirst())
            // #rgb is #rrggbb with each digit doubled, as in CSS.
            let long = digits.count == 3 ? "#" + String(decoding: digits.flatMap { [$0, $0] }, as: UTF8.self) : text
            if let color = StrokeColor(hex: long) { return .success(color) }
            return .failure(ColorError("\(quoted(text)) is not a colour; use #RGB or #RRGGBB (hex digits, e.g. #3465a4) or a CSS colour name (e.g. crimson)"))
        }
        if let color = color(named: text) { return .success(color) }
        if ["transparent", "currentcolor"].contains(text.lowercased()) {
            return .failure(ColorError("\(quoted(text)) is a CSS keyword, not a colour: ink takes a colour name (e.g. crimson), #RGB or #RRGGBB"))
        }
        let near = nearest(to: text)
        if near.isEmpty {
            return .failure(ColorError("unknown colour \(quoted(text)); use a CSS colour name (e.g. crimson, listed at \(reference)), #RGB or #RRGGBB"))
        }
        return .failure(ColorError("unknown colour \(quoted(text)); did you mean \(near.dropLast().joined(separator: ", "))\(near.count > 1 ? " or " : "")\(near.last!)?"))
    }

    /// Up to three names nearest to `word`: those fewest edits away, when that
    /// is few for the word's length, else those that begin with it
    /// ("lightgoldenrod" for lightgoldenrodyellow).
    public static func nearest(to word: String) -> [String] {
        let word = Array(word.lowercased().utf8)
        // A longer word is no misspelt name, and a megabyte would cost seconds.
        guard !word.isEmpty, word.count <= 32 else { return [] }
        let distances = table.map { (name: $0.name, edits: editDistance(word, Array($0.name.utf8))) }
        let fewest = distances.map(\.edits).min()!
        if fewest <= max(2, word.count / 4) {
            return Array(distances.filter { $0.edits == fewest }.map(\.name).prefix(3))
        }
        return word.count >= 4 ? Array(names.filter { $0.utf8.starts(with: word) }.prefix(3)) : []
    }

    /// The text in quotes with any control character escaped, cut to a length an error line can show.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return shown.debugDescription
    }
}

extension StrokeColor {
    /// A CSS colour name, `#rgb` or `#rrggbb` (any case); nil for anything else.
    public init?(css text: String) {
        guard case .success(let color) = ColorName.parse(text) else { return nil }
        self = color
    }
}
