// SPDX-License-Identifier: MIT
/// `draw`'s answer: small, since a canvas sends one request a frame while a
/// stroke is drawn (not `status`, which the other canvas commands answer).
public struct DrawResult: Codable, Equatable, Sendable {
    public var source: String
    public var phase: String
    /// The stroke's index in `strokes` while it is drawn; nil once it ended
    /// (`up`, `cancel`), when it is the laser's (never recorded), or when a
    /// limit ended it (a `canvas-full` event says which).
    public var stroke: Int?
    /// Points the stroke holds now (0 when `stroke` is nil).
    public var points: Int

    public init(source: String, phase: String, stroke: Int?, points: Int) {
        self.source = source
        self.phase = phase
        self.stroke = stroke
        self.points = points
    }
}
