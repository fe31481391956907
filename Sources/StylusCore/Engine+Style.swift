// SPDX-License-Identifier: MIT
extension Engine {
    mutating func setStyle(_ style: StrokeStyle) {
        if style.tool != canvas.style.tool { canvas.previousTool = canvas.style.tool }
        canvas.style = style
        canvas.pens.adopt(style: style, previousTool: canvas.previousTool)
    }

    func toolEvent(source: ChangeSource, time: Microseconds) -> EngineEvent {
        .tool(ToolEvent(style: canvas.style, palette: paletteShown, colors: config.palette, source: source, time: time,
                        pen: canvas.pens.tools.first?.name))
    }

    mutating func changeStyle(_ request: StyleRequest, source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        switch request.applied(to: canvas.style, previousTool: canvas.previousTool, palette: config.palette) {
        case .failure(let unchanged):
            return .unchanged(reason: unchanged.reason)
        case .success(let style):
            setStyle(style)
            effects.events.append(toolEvent(source: source, time: time))
            effects.stateChanged = true
            return .done
        }
    }

    mutating func setPalette(_ request: PaletteRequest, source: ChangeSource, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        let wanted = switch request {
        case .show: true
        case .hide: false
        case .toggle: !paletteShown
        }
        if wanted == paletteShown { return .unchanged(reason: "the palette is already \(wanted ? "shown" : "hidden")") }
        if !wanted, config.showPalette == .always {
            return .refused(reason: "the palette always shows ([canvas] show_palette = \"always\"); set it to \"on-request\" to hide it")
        }
        paletteRequested = wanted
        effects.events.append(toolEvent(source: source, time: time))
        return .done
    }

    /// A tip-down on the open canvas's shown palette selects what the region
    /// under it selects (as a `tool:`, `color:`, `width:` or `background:` action
    /// from the pen would) and marks the contact as no ink. True when it was such a tap.
    mutating func tapPalette(device i: Int, at time: Microseconds, into effects: inout Effects) -> Bool {
        guard canvas.state == .open, paletteShown, !paletteRegions.isEmpty else { return false }
        let x = devices[i].axes.x, y = devices[i].axes.y
        guard let region = paletteRegions.last(where: { $0.contains(x: x, y: y) }) else { return false }
        devices[i].onPalette = true
        // Tapping what is already chosen changes nothing and is still no stroke.
        switch region.selection {
        case .style(let request): _ = changeStyle(request, source: .pen, at: time, into: &effects)
        case .board(let request): _ = changeBackground(request, source: .pen, at: time, into: &effects)
        }
        return true
    }
}
