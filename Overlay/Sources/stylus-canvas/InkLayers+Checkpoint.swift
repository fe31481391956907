// SPDX-License-Identifier: MIT
import CGtk4
import CanvasModel

/// The finished layer as it was a little while ago: its first strokes, drawn
/// into a layer of their own. An undo, a redo or a clear taken back then copies
/// it and draws the strokes after it, a thousand or so points, rather than the
/// whole drawing (which near the point limit took longer than a frame). Only a
/// drawing of more than `maximumLag` points has one: it costs a layer's memory.
struct FinishedCheckpoint {
    var surface: OpaquePointer?
    /// The strokes `surface` holds.
    var strokes: [InkStroke] = []
    /// Whether `strokes` are the first of what the finished layer shows (a clear
    /// or a new drawing after it leaves the checkpoint behind, but kept).
    var isPrefix = false

    /// Points the checkpoint stays behind the drawing: an undo of the last
    /// strokes finds their start in it…
    static let minimumLag = 1_000
    /// …and most the strokes after it may hold before it moves up.
    static let maximumLag = 3_000
}

extension InkLayers {
    /// Puts the checkpoint's pixels in the finished layer when it holds the first
    /// of `strokes`; the caller draws the rest.
    func restoreCheckpoint(for strokes: [InkStroke]) -> Bool {
        let held = checkpoint.strokes
        guard let surface = checkpoint.surface, !held.isEmpty, held.count <= strokes.count,
              strokes[..<held.count].elementsEqual(held), let finished else { return false }
        let cr = cairo_create(finished)!
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        damageEverything()
        checkpoint.isPrefix = true
        return true
    }

    /// Draws the checkpoint afresh for `strokes` (none when the drawing is too
    /// small for one); returns how many strokes it holds.
    func rebuildCheckpoint(for strokes: [InkStroke]) -> Int {
        let count = keepsCheckpoint ? Self.checkpointCount(strokes) : 0
        checkpoint.strokes = []
        checkpoint.isPrefix = false
        guard count > 0 else { return 0 }
        if checkpoint.surface == nil { checkpoint.surface = makeLayer() }
        withoutDamage {
            clear(checkpoint.surface)
            for stroke in strokes[..<count] { draw(stroke, into: checkpoint.surface) }
        }
        checkpoint.strokes = Array(strokes[..<count])
        checkpoint.isPrefix = true
        return count
    }

    /// Moves the checkpoint up once more than `maximumLag` points were drawn
    /// after it, or draws one for a drawing that grew past `maximumLag` without it.
    func advanceCheckpoint() {
        guard keepsCheckpoint else { return }
        let drawn = drawnFinished
        let held = checkpoint.strokes.count
        guard checkpoint.isPrefix, held > 0, checkpoint.surface != nil else {
            if drawn.reduce(0, { $0 + $1.points.count }) > FinishedCheckpoint.maximumLag { _ = rebuildCheckpoint(for: drawn) }
            return
        }
        guard drawn[held...].reduce(0, { $0 + $1.points.count }) > FinishedCheckpoint.maximumLag else { return }
        let count = Self.checkpointCount(drawn)
        guard count > held else { return }
        withoutDamage {
            for stroke in drawn[held..<count] { draw(stroke, into: checkpoint.surface) }
        }
        checkpoint.strokes = Array(drawn[..<count])
    }

    /// Drawing into the checkpoint changes nothing on the screen.
    private func withoutDamage(_ body: () -> Void) {
        let before = damage
        body()
        damage = before
    }

    /// How many strokes a checkpoint of `strokes` holds: all but the last
    /// `minimumLag` points' worth, none for a drawing within `maximumLag`.
    static func checkpointCount(_ strokes: [InkStroke]) -> Int {
        var after = 0
        for index in strokes.indices.reversed() {
            after += strokes[index].points.count
            if after >= FinishedCheckpoint.minimumLag {
                return strokes[..<index].reduce(0, { $0 + $1.points.count }) + after > FinishedCheckpoint.maximumLag ? index : 0
            }
        }
        return 0
    }
}
