// SPDX-License-Identifier: MIT
extension Engine {
    /// The tools seen, most recent first, each with its style.
    public var pens: ToolTable { canvas.pens }

    /// A tool came into proximity on device `i`: it becomes the tool in use,
    /// and its style the one the next stroke gets and the canvases show.
    mutating func enterPen(device i: Int, tool: Tool, at time: Microseconds, into effects: inout Effects) {
        let id = PenToolID(device: devices[i].info.name, tool: tool)
        devices[i].pen = id
        let fresh = canvas.pens.index(of: id) == nil ? newPen(id, toolID: tool.toolID) : nil
        var changed = canvas.pens.bringToFront(id, at: time, orAdd: fresh)
        // The tool id is the last one seen, and with it the table that names the tool may change.
        if tool.toolID != 0, canvas.pens.tools[0].toolID != tool.toolID {
            let config = self.config
            canvas.pens.update(0) {
                $0.toolID = tool.toolID
                $0.configuredName = config.penConfig(for: $0)?.name(of: $0.id)
            }
            changed = true
        }
        refreshPen(device: i)
        guard changed else { return }
        effects.stateChanged = true
        if showCurrentPen() { effects.events.append(toolEvent(source: .pen, time: time)) }
    }

    /// What device `i` keeps of its tool: its name (for each sample) and its
    /// pressure curve, sampled again only when the curve changed.
    mutating func refreshPen(device i: Int) {
        let tool = devices[i].pen.flatMap { canvas.pens.tool($0) }
        devices[i].penName = tool?.name
        let curve = tool.flatMap { config.penConfig(for: $0)?.curve }
        if devices[i].pressureShape?.curve != curve { devices[i].pressureShape = curve.map(PressureTable.init) }
    }

    /// The axes as the tool's own curve shapes its pressure: the ink's width
    /// and precision mode follow it; the clone in filter mode gets no pressure from here.
    func shaped(_ axes: PenAxes, device i: Int) -> PenAxes {
        guard let shape = devices[i].pressureShape else { return axes }
        var shaped = axes
        shaped.pressure = shape.value(at: axes.pressure)
        return shaped
    }

    /// What a double press of `button` does on device `i`: the binding of its
    /// pen tool's `[pens.NAME.bindings]` for a side button, else `[bindings]`'s.
    func binding(for button: ButtonID, device i: Int) -> Action {
        if case .side(let side) = button, let id = devices[i].pen, let tool = canvas.pens.tool(id),
           let action = config.penConfig(for: tool)?.binding(for: side) {
            return action
        }
        return config.binding(for: button)
    }

    /// A tool seen for the first time starts from the shared style; the eraser end erases.
    func newPen(_ id: PenToolID, toolID: UInt64) -> PenTool {
        var style = canvas.pens.base
        var previous = canvas.pens.basePreviousTool
        if id.type == .eraser, style.tool != .eraser {
            previous = style.tool
            style.tool = .eraser
        }
        guard let own = config.penConfig(for: id, toolID: toolID) else { return PenTool(id: id, toolID: toolID, style: style, previousTool: previous) }
        (style, previous) = Self.applying(own.style(of: id), to: style, previous: previous)
        return PenTool(id: id, toolID: toolID, style: style, previousTool: previous, configuredName: own.name(of: id))
    }

    /// The canvas's style follows the tool in use. True when the style changed.
    @discardableResult
    mutating func showCurrentPen() -> Bool {
        let current = canvas.pens.current
        canvas.previousTool = current.previousTool
        guard current.style != canvas.style else { return false }
        canvas.style = current.style
        return true
    }

    /// The style a stroke from device `i` gets, and the name of the tool drawing it.
    func penStyle(device i: Int) -> (style: StrokeStyle, pen: String?) {
        guard let id = devices[i].pen, let tool = canvas.pens.tool(id) else { return (canvas.style, nil) }
        return (tool.style, tool.name)
    }

    /// `[canvas]` style keys applied over the base and every tool's style (the
    /// eraser end keeps its tool), as a start or a reload applies them. True when a style changed.
    mutating func applyCanvasKeys(_ keys: ConfiguredStyle) -> Bool {
        guard keys != ConfiguredStyle() else { return false }
        let before = canvas.pens
        (canvas.pens.base, canvas.pens.basePreviousTool) = Self.applying(keys, to: canvas.pens.base, previous: canvas.pens.basePreviousTool)
        for i in canvas.pens.tools.indices {
            // The eraser end keeps erasing; a key the pen's own table sets is that table's.
            let id = canvas.pens.tools[i].id
            var keys = keys
            if id.type == .eraser { keys.tool = nil }
            if let own = config.penConfig(for: canvas.pens.tools[i])?.style(of: id) {
                if own.tool != nil { keys.tool = nil }
                if own.color != nil { keys.color = nil }
                if own.width != nil { keys.width = nil }
            }
            canvas.pens.update(i) { ($0.style, $0.previousTool) = Self.applying(keys, to: $0.style, previous: $0.previousTool) }
        }
        showCurrentPen()
        return canvas.pens != before
    }

    static func applying(_ keys: ConfiguredStyle, to style: StrokeStyle, previous: DrawingTool) -> (StrokeStyle, DrawingTool) {
        let next = keys.applied(to: style)
        return (next, next.tool != style.tool ? style.tool : previous)
    }
}

extension Canvas {
    /// The tools the state file kept (a restart); their styles apply with `Engine.restore`.
    public mutating func restorePens(_ table: ToolTable) {
        pens = table
    }
}

extension Engine {
    /// `[pens.NAME]` names and style keys over the tools seen: every key at a
    /// start (`earlier` nil), only the keys a reload changed otherwise (a style
    /// chosen since is kept). True when a tool changed.
    mutating func applyPenConfig(since earlier: EngineConfig?) -> Bool {
        let before = canvas.pens
        for i in canvas.pens.tools.indices {
            let tool = canvas.pens.tools[i], id = tool.id
            let own = config.penConfig(for: tool)
            var keys = own?.style(of: id) ?? ConfiguredStyle()
            if let earlier { keys = keys.changed(from: earlier.penConfig(for: tool)?.style(of: id) ?? ConfiguredStyle()) }
            canvas.pens.update(i) {
                $0.configuredName = own?.name(of: id)
                ($0.style, $0.previousTool) = Self.applying(keys, to: $0.style, previous: $0.previousTool)
            }
        }
        // A table named, renamed or gone: the pens in proximity carry the name and curve they have now.
        for d in devices.indices { refreshPen(device: d) }
        showCurrentPen()
        return canvas.pens != before
    }

    /// The tool a `tool` command's `pen` names: its name, or its serial ("0x…")
    /// with the pen end before the eraser end.
    func penIndex(named pen: String) -> Int? {
        let tools = canvas.pens.tools
        if let i = tools.firstIndex(where: { $0.name == pen }) { return i }
        let digits = pen.hasPrefix("0x") || pen.hasPrefix("0X") ? pen.dropFirst(2) : Substring(pen)
        guard let serial = UInt64(digits, radix: 16), serial != 0 else { return nil }
        return tools.firstIndex { $0.id.serial == serial && $0.id.type != .eraser } ?? tools.firstIndex { $0.id.serial == serial }
    }

    /// `tool` with `pen`: that tool's style, whether or not it is the one in use.
    mutating func changePenStyle(_ request: StyleRequest, pen: String, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        guard let i = penIndex(named: pen) else {
            let known = canvas.pens.tools.map { "\"\($0.name)\"" }
            return .refused(reason: "no pen \"\(pen)\" seen; \(known.isEmpty ? "no pen has been seen yet" : "known: \(known.joined(separator: ", "))")")
        }
        if i == 0 { return changeStyle(request, source: .command, at: time, into: &effects) }
        let tool = canvas.pens.tools[i]
        switch request.applied(to: tool.style, previousTool: tool.previousTool, palette: config.palette) {
        case .failure(let unchanged):
            return .unchanged(reason: unchanged.reason)
        case .success(let style):
            canvas.pens.update(i) {
                if style.tool != $0.style.tool { $0.previousTool = $0.style.tool }
                $0.style = style
            }
            effects.stateChanged = true
            return .done
        }
    }
}
