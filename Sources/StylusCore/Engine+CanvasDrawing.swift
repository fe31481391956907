// SPDX-License-Identifier: MIT
/// Strokes a canvas streams from its mouse, touchpad or touchscreen (`draw`).
/// Each source is a device of the engine's own, under its reserved id, drawn
/// as a pen would be: tip down, motion, tip up. So a clear mid-stroke starts
/// it again, undo leaves it in progress, and a pen can draw at the same time.
extension Engine {
    mutating func draw(_ request: DrawRequest, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        let (problem, points) = DrawRequest.check(source: request.source, phase: request.phase, points: request.points, aspect: request.aspect)
        if let problem { return .refused(reason: problem) }
        guard let id = request.source.device else { return .refused(reason: "the pen draws through the daemon's own input") }
        let found = index(of: id).flatMap { devices[$0].tipDown ? $0 : nil }
        if request.phase != .cancel, canvas.state != .open {
            return .refused(reason: "the canvas is \(canvas.state.rawValue); a canvas draws only while it is open")
        }
        switch request.phase {
        case .down:
            let i = ensureDevice(id)
            // The last stroke's `up` was lost (the canvas lost its pointer grab): it ends as `up` would have ended it.
            if devices[i].tipDown { lift(device: i, at: time, into: &effects) }
            devices[i].info = DeviceInfo(name: request.source.rawValue, kind: .pen,
                                         area: request.aspect.map { PenArea(widthMM: 1, heightMM: $0, direct: true) })
            devices[i].tool = Tool(type: .pen)
            devices[i].lastTool = devices[i].tool
            devices[i].axes = Self.axes(points[0])
            // A press on the shown palette selects, as a pen tap does, and draws nothing until it lifts
            // (a cancel or a minimize may have left the last one's mark).
            devices[i].onPalette = false
            if tapPalette(device: i, at: time, into: &effects) {
                devices[i].tipDown = true
                return .done
            }
            startStroke(device: i, at: time, into: &effects)
            // The laser is never recorded: its stroke is the canvas's alone; nor is the text tool's tap.
            if devices[i].recordingStroke == nil, canvas.style.tool != .laser, canvas.style.tool != .text {
                return .refused(reason: "the canvas is full (\(canvas.strokes.count) strokes, \(canvas.pointCount) points): clear it or erase strokes first")
            }
            devices[i].tipDown = true
            append(points.dropFirst(), device: i, at: time, into: &effects)
        case .move:
            guard let i = found else { return .refused(reason: "move without down: no \(request.source.rawValue) stroke is in progress") }
            append(points[...], device: i, at: time, into: &effects)
        case .up:
            guard let i = found else { return .refused(reason: "up without down: no \(request.source.rawValue) stroke is in progress") }
            append(points[...], device: i, at: time, into: &effects)
            lift(device: i, at: time, into: &effects)
        case .cancel:
            guard let i = found else { return .refused(reason: "cancel without down: no \(request.source.rawValue) stroke is in progress") }
            devices[i].tipDown = false
            devices[i].onPalette = false
            guard let s = devices[i].recordingStroke else { return .done }
            devices[i].recordingStroke = nil
            canvas.pointCount -= canvas.strokes[s].points.count
            canvas.strokes.remove(at: s)
            for d in devices.indices {
                if let r = devices[d].recordingStroke, r > s { devices[d].recordingStroke = r - 1 }
            }
        }
        return .done
    }

    /// A minimize ends every stroke: a canvas source's next stroke begins with a `down` of its own.
    mutating func releaseCanvasSources() {
        for i in devices.indices where devices[i].id.isCanvasSource {
            devices[i].tipDown = false
            devices[i].onPalette = false
        }
    }

    private mutating func append(_ points: ArraySlice<DrawRequest.Point>, device i: Int, at time: Microseconds, into effects: inout Effects) {
        for p in points {
            devices[i].axes = Self.axes(p)
            appendPoint(device: i, at: time, into: &effects)
        }
    }

    private static func axes(_ p: DrawRequest.Point) -> PenAxes {
        PenAxes(x: p.x, y: p.y, pressure: p.pressure ?? DrawRequest.defaultPressure)
    }
}

extension Engine {
    /// The index in `canvas.strokes` of the stroke a canvas source is drawing.
    public func strokeInProgress(_ source: StrokeSource) -> Int? {
        source.device.flatMap(index(of:)).flatMap { devices[$0].recordingStroke }
    }
}
