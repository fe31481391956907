// SPDX-License-Identifier: MIT
import StylusCore
/// The strokes the overlay shows, in two layers:
/// - `finished`: the daemon's own strokes (from `strokes`), the authority;
/// - live strokes drawn from `pen` samples while the daemon records them,
///   kept until a `strokes` answer contains them.
/// It decides what has to be drawn again, so that the window redraws only
/// what changed.
public struct StrokeBook: Sendable {
    public private(set) var finished: [InkStroke] = []
    /// Live strokes whose tip went up, oldest first, not yet in `finished`.
    public private(set) var liveDone: [InkStroke] = []
    /// The stroke in progress, per device.
    public private(set) var liveCurrent: [UInt32: InkStroke] = [:]
    /// Laser strokes that ended, oldest first: the daemon never records them, so
    /// no `strokes` answer confirms them; each goes `laserLifetime` after it ended.
    public private(set) var lasers: [InkStroke] = []

    /// Where the text tool's last tap (a pen's tip or the canvas's mouse or finger coming
    /// down) was, and how many there were: a canvas places its text caret there.
    /// The text tool draws no live ink, and the daemon records no stroke for it.
    public private(set) var textTap: InkPoint?
    public private(set) var textTaps = 0
    private var textDown: Set<UInt32> = []

    /// How long a laser stroke stays on the canvas after its tip went up.
    public static let laserLifetimeMilliseconds = 1500
    /// Strokes the daemon confirmed before their tip-up sample reached us:
    /// the next live strokes to end are already in `finished`.
    private var owedDrops = 0

    public init() {}

    /// What drawing a `strokes` answer needs.
    public enum Reconciliation: Equatable, Sendable {
        /// Nothing new.
        case unchanged
        /// Draw `finished[range]` over what is there.
        case append(Range<Int>)
        /// The answer does not extend what is drawn (a clear, a restored
        /// state, a restart): draw everything again.
        case rebuild
    }

    /// Takes a `strokes` answer. Live strokes it now contains are dropped
    /// (one per new stroke, oldest first); `liveChanged` says whether the
    /// live layer must be drawn again. `rebuild`: the answer was asked for
    /// after a stroke was removed (an undo), so it is drawn again whole even
    /// when it looks like an extension (a new stroke in the undone one's place).
    public mutating func reconcile(_ strokes: [InkStroke], rebuild: Bool = false) -> (finished: Reconciliation, liveChanged: Bool) {
        let old = finished.count
        let extends = !rebuild && strokes.count >= old && (old == 0 || strokes[old - 1].points.count == finished[old - 1].points.count)
        let result: Reconciliation
        if !extends {
            result = .rebuild
            liveDone.removeAll()
        } else if strokes.count == old {
            result = .unchanged
        } else {
            result = .append(old..<strokes.count)
        }
        let confirmed = extends ? strokes.count - old : 0
        let dropped = min(confirmed, liveDone.count)
        liveDone.removeFirst(dropped)
        owedDrops = extends ? owedDrops + confirmed - dropped : 0
        finished = strokes
        return (result, dropped > 0 || !extends)
    }

    /// Forgets everything (the canvas was cleared).
    public mutating func clear() {
        finished.removeAll()
        liveDone.removeAll()
        liveCurrent.removeAll()
        lasers.removeAll()
        owedDrops = 0
    }

    /// The oldest laser stroke's time is up; true when there was one (draw the live layer again).
    public mutating func expireOldestLaser() -> Bool {
        guard !lasers.isEmpty else { return false }
        lasers.removeFirst()
        return true
    }

    /// What a pen sample changed on the live layer.
    public enum LiveChange: Equatable, Sendable {
        case none
        /// A new segment of the stroke in progress.
        case segment(InkPoint, InkPoint, InkStyle)
        /// A live stroke left the live layer: draw that layer again.
        case redrawLive
    }

    /// Follows the `pen` topic: tip down extends (or starts) the device's
    /// stroke, tip up ends it. A tool drawn whole (a shape, the highlighter)
    /// asks for the live layer again at each sample instead of a segment.
    public mutating func penSample(device: UInt32, style: InkStyle, point: InkPoint, tip: Bool) -> LiveChange {
        // A contact begun with the text tool draws nothing until it lifts, whatever the style becomes.
        if style.tool == .text || textDown.contains(device) {
            let redraw = endStroke(device: device)
            if !tip {
                textDown.remove(device)
            } else if textDown.insert(device).inserted {
                textTap = point
                textTaps += 1
            }
            return redraw ? .redrawLive : .none
        }
        if !tip {
            return endStroke(device: device) ? .redrawLive : .none
        }
        if var stroke = liveCurrent[device], stroke.style == style {
            let last = stroke.points[stroke.points.count - 1]
            stroke.points.append(point)
            liveCurrent[device] = stroke
            return style.tool.drawsWhole ? .redrawLive : .segment(last, point, style)
        }
        let redraw = endStroke(device: device)
        liveCurrent[device] = InkStroke(device: device, style: style, points: [point])
        return redraw ? .redrawLive : .none
    }

    public mutating func penSample(device: UInt32, tool: InkTool, point: InkPoint, tip: Bool) -> LiveChange {
        penSample(device: device, style: .legacy(tool: tool), point: point, tip: tip)
    }

    /// The tool left proximity or the sample stream ended a stroke. True when
    /// the stroke was already confirmed and left the live layer.
    @discardableResult
    public mutating func endStroke(device: UInt32) -> Bool {
        guard let stroke = liveCurrent.removeValue(forKey: device), stroke.points.count > 1 else { return false }
        if stroke.tool == .laser {
            lasers.append(stroke)
            return false
        }
        if owedDrops > 0 {
            owedDrops -= 1
            return true
        }
        liveDone.append(stroke)
        return false
    }

    /// Every live stroke, done and in progress: what the live layer shows.
    public var liveStrokes: [InkStroke] { liveDone + lasers + liveCurrent.keys.sorted().compactMap { liveCurrent[$0] } }

    public var pointCount: Int { finished.reduce(0) { $0 + $1.points.count } }
}
