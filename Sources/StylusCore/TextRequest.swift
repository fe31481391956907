// SPDX-License-Identifier: MIT
/// A text to put on the open canvas (`text`): its string, its anchor (the top
/// left of its first line) in the space pen strokes are recorded in, and, when
/// given, its size and colour; otherwise the current style's colour and the size
/// `StrokeText.size(forWidth:)` gives its width.
public struct TextRequest: Equatable, Sendable {
    public var string: String
    public var x: Double
    public var y: Double
    public var size: Double?
    public var color: StrokeColor?

    public init(string: String, x: Double, y: Double, size: Double? = nil, color: StrokeColor? = nil) {
        self.string = string
        self.x = x
        self.y = y
        self.size = size
        self.color = color
    }

    /// Why this cannot be drawn, or nil. The anchor must lie on the canvas (0...1):
    /// a text may run off its right or bottom edge, not start outside it.
    public var problem: String? {
        if let problem = StrokeText.problem(with: string) { return problem }
        guard x.isFinite, y.isFinite, (0...1).contains(x), (0...1).contains(y) else {
            return "the anchor (\(x), \(y)) is outside the canvas: \"x\" and \"y\" must be from 0 to 1"
        }
        if let size, !(size.isFinite && StrokeText.sizeRange.contains(size)) {
            return "\"size\" must be from \(Int(StrokeText.sizeRange.lowerBound)) to \(Int(StrokeText.sizeRange.upperBound)) (pixels of a drawing 1600 wide), not \(size)"
        }
        return nil
    }
}
