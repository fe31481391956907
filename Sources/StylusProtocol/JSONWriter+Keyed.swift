// SPDX-License-Identifier: MIT

/// A key and its value in one call, so that an event's line reads as its
/// list of members: `w.string("event", "pen")` is `w.key("event"); w.string("pen")`.
extension JSONWriter {
    public mutating func string(_ k: StaticString, _ value: String) {
        key(k)
        string(value)
    }

    public mutating func int<I: BinaryInteger>(_ k: StaticString, _ value: I) {
        key(k)
        int(value)
    }

    public mutating func bool(_ k: StaticString, _ value: Bool) {
        key(k)
        bool(value)
    }

    public mutating func double(_ k: StaticString, _ value: Double) {
        key(k)
        double(value)
    }

    public mutating func null(_ k: StaticString) {
        key(k)
        null()
    }

    /// An array of strings: the palette's colours in a `tool` event.
    public mutating func strings(_ k: StaticString, _ values: [String]) {
        key(k)
        array(values) { a, value in a.string(value) }
    }
}
