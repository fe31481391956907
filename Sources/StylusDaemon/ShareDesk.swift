// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol

/// The snapshots and copies passed on to the canvas process, each under its
/// own number until the canvas answers it or its time runs out: a canvas that
/// never answers (an old stylus-canvas, a desktop whose canvas takes no
/// snapshots) must not leave a client waiting for ever.
struct ShareDesk {
    /// A capture of a big screen and its PNG take a fraction of this; past it the canvas is not answering.
    static let timeout: Int64 = 5_000_000

    struct Pending {
        var client: ClientConnection?
        var id: JSONValue
        var kind: ShareKind
        var path: String?
        var deadline: Int64
        /// A `submit` whose scene is the screen: the snapshot, once written, ends the drawing.
        var submit: (options: SubmitOptions, source: ChangeSource)?
    }

    private var pending: [Int: Pending] = [:]
    private var next = 1

    var deadline: Int64? { pending.values.map(\.deadline).min() }

    /// Files a request; its number goes out with the `share` event.
    mutating func add(_ request: Pending) -> Int {
        let number = next
        next += 1
        pending[number] = request
        return number
    }

    mutating func take(_ number: Int) -> Pending? { pending.removeValue(forKey: number) }

    /// The requests whose time ran out, removed.
    mutating func timeOut(now: Int64) -> [Pending] {
        let late = pending.filter { $0.value.deadline <= now }
        for number in late.keys { pending[number] = nil }
        return late.sorted { $0.key < $1.key }.map(\.value)
    }
}
