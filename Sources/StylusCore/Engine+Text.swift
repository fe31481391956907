// SPDX-License-Identifier: MIT
/// Texts (`text`): a finished stroke of the keyboard's reserved device from the
/// moment it comes, so undo, redo, clear, both erasers, the state file and the
/// exports treat it as any other stroke.
extension Engine {
    mutating func addText(_ request: TextRequest, at time: Microseconds, into effects: inout Effects) -> CommandOutcome {
        if let problem = request.problem { return .refused(reason: problem) }
        guard canvas.state == .open else {
            return .refused(reason: "the canvas is \(canvas.state.rawValue); a text is placed only while it is open")
        }
        if canvas.isFull || canvas.strokes.count >= config.canvasLimits.maxStrokes || canvas.pointCount >= config.canvasLimits.maxPoints {
            return .refused(reason: "the canvas is full (\(canvas.strokes.count) strokes, \(canvas.pointCount) points): clear it or erase strokes first")
        }
        let current = canvas.style
        let style = StrokeStyle(tool: .text, color: request.color ?? current.color, width: current.width)
        let anchor = StrokePoint(x: Float(request.x), y: Float(request.y), pressure: 1, tiltX: 0, tiltY: 0, time: time)
        var stroke = Stroke(device: StrokeSource.keyboard.device!, style: style, points: [anchor])
        stroke.text = StrokeText(string: request.string, size: request.size ?? StrokeText.size(forWidth: current.width))
        // Below strokes in progress, which stay the newest (as redo puts a stroke back).
        let at = devices.compactMap(\.recordingStroke).min() ?? canvas.strokes.count
        canvas.strokes.insert(stroke, at: at)
        for i in devices.indices {
            if let r = devices[i].recordingStroke, r >= at { devices[i].recordingStroke = r + 1 }
        }
        canvas.pointCount += 1
        record(.stroke)
        updateFullness()
        effects.events.append(.stroke(StrokeEvent(device: stroke.device, index: at, points: 1, time: time, pen: nil)))
        effects.stateChanged = true
        return .done
    }
}
