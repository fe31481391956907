// SPDX-License-Identifier: MIT
import CanvasModel

/// A `strokes` answer from an index on: the drawing's strokes after those a canvas holds.
struct StrokesTail: Sendable {
    /// The index of the first stroke listed; nil when the answer lists the whole drawing.
    var from: Int?
    /// How many strokes the drawing has (nil with `from`).
    var count: Int?
    var strokes: [InkStroke]

    /// The whole drawing: the strokes `known` holds before `from`, then these; nil when the
    /// drawing now ends before `from` or `known` does not reach it (strokes went meanwhile):
    /// then only the whole drawing tells which.
    func whole(after known: [InkStroke]) -> [InkStroke]? {
        guard let from else { return strokes }
        guard let count, count >= from, from <= known.count else { return nil }
        return Array(known.prefix(from)) + strokes
    }
}
