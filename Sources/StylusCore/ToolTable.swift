// SPDX-License-Identifier: MIT
/// The tools seen, most recent first, each with its own style. The first is
/// the tool in proximity (or the last one seen): a style chosen goes to it,
/// and it is the style the canvases are told of.
public struct ToolTable: Equatable, Sendable {
    /// A pen with a serial reports a new one for every pen; the table forgets the tool seen longest ago.
    public static let capacity = 32

    public internal(set) var tools: [PenTool] = []
    /// Where a tool seen for the first time starts: the shared style as it
    /// was before tools had styles of their own (and, with no tool seen yet,
    /// where a style chosen goes).
    public internal(set) var base = StrokeStyle()
    public internal(set) var basePreviousTool = DrawingTool.highlighter

    public init() {}

    /// A table as the state file kept it, most recent first; beyond `capacity` the oldest are dropped.
    public init(base: StrokeStyle, tools: [PenTool]) {
        self.base = base
        var seen = Set<PenToolID>()
        self.tools = Array(tools.filter { seen.insert($0.id).inserted }.prefix(Self.capacity))
    }

    public func index(of id: PenToolID) -> Int? { tools.firstIndex { $0.id == id } }

    public func tool(_ id: PenToolID) -> PenTool? { index(of: id).map { tools[$0] } }

    /// The style and `tool:previous` of the tool in use, or the base with none seen.
    var current: (style: StrokeStyle, previousTool: DrawingTool) {
        tools.first.map { ($0.style, $0.previousTool) } ?? (base, basePreviousTool)
    }

    /// Sets the style of the tool in use (the base with none seen).
    mutating func adopt(style: StrokeStyle, previousTool: DrawingTool) {
        if tools.isEmpty {
            base = style
            basePreviousTool = previousTool
        } else {
            tools[0].style = style
            tools[0].previousTool = previousTool
        }
    }

    /// Moves the tool to the front, adding `fresh` when it is new. True when it was not the front one already.
    mutating func bringToFront(_ id: PenToolID, at time: Microseconds, orAdd fresh: PenTool?) -> Bool {
        let wasFront = tools.first?.id == id
        guard var tool = index(of: id).map({ tools.remove(at: $0) }) ?? fresh else { return false }
        tool.lastSeen = time
        tools.insert(tool, at: 0)
        if tools.count > Self.capacity { tools.removeLast(tools.count - Self.capacity) }
        return !wasFront
    }

    mutating func update(_ i: Int, _ change: (inout PenTool) -> Void) { change(&tools[i]) }
}
