// SPDX-License-Identifier: MIT
import CanvasModel
import StylusProtocol

/// A `share` event: the daemon asks this canvas for a snapshot or a copy.
struct ShareAsk: Sendable, Equatable {
    var request: Int
    var what: ShareKind
    /// Where a snapshot goes (the daemon checked its folder).
    var path: String?
    /// The monitor's connector name; nil: the canvas's first monitor.
    var monitor: String?
    /// A copied drawing's size and board: `export`'s.
    var width: Int32
    var height: Int32
    var board: InkBoard

    init?(_ event: EventLine) {
        func number(_ key: String) -> Int? { if case .number(let n)? = event.fields[key], let w = Int(exactly: n.rounded()) { w } else { nil } }
        guard let request = number("request"), let what = event.string("what").flatMap(ShareKind.init(rawValue:)) else { return nil }
        self.request = request
        self.what = what
        path = event.string("path")
        monitor = event.string("monitor")
        width = Int32(clamping: number("width") ?? 1600)
        height = Int32(clamping: number("height") ?? 900)
        board = event.string("background").flatMap(InkBoard.init(name:)) ?? .none
    }
}
