// SPDX-License-Identifier: MIT

/// The one number rule of every line the daemon writes by hand (events, pen
/// samples, `status`, the state file), so that a number reads the same in
/// each of them and in what JSONEncoder writes (the other responses):
/// the shortest text that reads back to the same value, without a ".0" on a
/// whole number (`1`, `-64`, `0.123`, `1e+16`, `-0`), and `null` for a
/// value JSON cannot carry (infinities, NaN). `JSONNumberTests` pins it.
public enum JSONNumber {
    /// Appends `value`; false, with `null` appended, when it is not finite,
    /// for a writer that must refuse it instead (the state file).
    @discardableResult
    public static func append(_ value: Double, to bytes: inout [UInt8]) -> Bool {
        appendShortest(value, to: &bytes)
    }

    /// A Float in its own shortest form (`0.1`, not the Double's `0.10000000149011612`),
    /// so that the state file's points read back bit for bit.
    @discardableResult
    public static func append(_ value: Float, to bytes: inout [UInt8]) -> Bool {
        appendShortest(value, to: &bytes)
    }

    private static func appendShortest<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, to bytes: inout [UInt8]) -> Bool {
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return false
        }
        // Swift's description is already the shortest round-trip text; a whole
        // number only gains a ".0", which JSONEncoder leaves off.
        bytes.append(contentsOf: value.description.utf8)
        let count = bytes.count
        if bytes[count - 2] == UInt8(ascii: "."), bytes[count - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
        return true
    }
}
