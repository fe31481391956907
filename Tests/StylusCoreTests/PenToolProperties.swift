// SPDX-License-Identifier: MIT
import PropertyBased
import Testing
@testable import StylusCore

@Suite("Each pen its own style: properties")
struct PenToolProperties {
    /// Three pens with serials and the eraser end of the first.
    static let tools: [(ToolType, UInt64)] = [(.pen, 1), (.pen, 2), (.pen, 3), (.eraser, 1)]
    static let colors = StyleRequest.defaultPalette

    /// Each step is one of: a tool in (0..<4), the pen out (4), a colour chosen (5..<13), a tool chosen (13..<15).
    @Test func eachToolHasTheLastStyleChosenWhileItWasInUse() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...14).array(of: 1...60)) { steps in
            var h = EngineHarness()
            var expected: [StrokeStyle?] = Array(repeating: nil, count: Self.tools.count)
            var base = StrokeStyle()
            var inUse: Int?
            for (n, step) in steps.enumerated() {
                let t = Double(n * 10)
                switch step {
                case 0..<4:
                    if inUse != nil, h.engine.devices[0].tool != nil { h.leave(at: t) }
                    h.enter(Self.tools[step].0, serial: Self.tools[step].1, at: t + 1)
                    inUse = step
                    if expected[step] == nil {
                        var start = base
                        if Self.tools[step].0 == .eraser { start.tool = .eraser }
                        expected[step] = start
                    }
                case 4:
                    h.leave(at: t)
                default:
                    let request: StyleRequest = step < 13
                        ? .set(tool: nil, color: Self.colors[step - 5], width: nil)
                        : .set(tool: step == 13 ? .highlighter : .pen, color: nil, width: nil)
                    h.command(.style(request), at: t)
                    var style = inUse.flatMap { expected[$0] } ?? base
                    if case .set(let tool, let color, _) = request {
                        style.tool = tool ?? style.tool
                        style.color = color ?? style.color
                    }
                    if let inUse { expected[inUse] = style } else { base = style }
                }
            }
            for (k, tool) in Self.tools.enumerated() {
                let id = PenToolID(device: "test pen", type: tool.0, serial: tool.1)
                #expect(h.engine.pens.tool(id)?.style == expected[k], "tool \(k) after \(steps)")
            }
            #expect(h.engine.canvas.style == (inUse.flatMap { expected[$0] } ?? base), "the canvas shows the tool in use")
            #expect(h.engine.pens.base == base, "no tool in use: the base")
        }
    }
}
