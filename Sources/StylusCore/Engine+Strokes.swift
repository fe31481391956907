// SPDX-License-Identifier: MIT
extension Engine {
    mutating func startStroke(device i: Int, at time: Microseconds, into effects: inout Effects) {
        guard canvas.state == .open, devices[i].recordingStroke == nil, !devices[i].onPalette,
              let tool = devices[i].tool ?? devices[i].lastTool else { return }
        let drawer = penStyle(device: i)
        var style = drawer.style
        if tool.type == .eraser { style.tool = .eraser }
        // A stroke eraser is never kept: on a full canvas it is how room is made.
        if !(style.tool == .eraser && config.eraser == .stroke) {
            guard !canvas.isFull else { return }
            if canvas.strokes.count >= config.canvasLimits.maxStrokes {
                markFull(.strokes, at: time, into: &effects)
                return
            }
            if canvas.pointCount >= config.canvasLimits.maxPoints {
                markFull(.points, at: time, into: &effects)
                return
            }
        }
        // Room for a typical stroke is taken now, on the tip-down frame, so
        // that its motion frames append without allocating; endStroke trims it.
        var points: [StrokePoint] = []
        points.reserveCapacity(Self.strokeReservation)
        points.append(StrokePoint(devices[i].axes, time: time))
        // The laser's ink only shows while it fades: never recorded, never content.
        // With the text tool a tap places the canvas's caret; the text comes with `text`.
        guard style.tool != .laser, style.tool != .text else { return }
        canvas.strokes.append(Stroke(device: devices[i].id, style: style, points: points))
        canvas.strokes[canvas.strokes.count - 1].pen = drawer.pen
        canvas.pointCount += 1
        devices[i].recordingStroke = canvas.strokes.count - 1
    }

    mutating func appendPoint(device i: Int, at time: Microseconds, into effects: inout Effects) {
        guard let s = devices[i].recordingStroke else { return }
        if canvas.strokes[s].style.tool == .eraser, config.eraser == .stroke {
            // Its points go with it when it ends: bounded on their own, not by the canvas's limit.
            if canvas.strokes[s].points.count >= Self.strokeEraserPointLimit {
                endStroke(device: i, at: time, into: &effects)
                return
            }
        } else if canvas.pointCount >= config.canvasLimits.maxPoints {
            endStroke(device: i, at: time, into: &effects)
            markFull(.points, at: time, into: &effects)
            return
        }
        canvas.strokes[s].points.append(StrokePoint(devices[i].axes, time: time))
        canvas.pointCount += 1
    }

    mutating func endStroke(device i: Int, at time: Microseconds, into effects: inout Effects) {
        guard let s = devices[i].recordingStroke else { return }
        devices[i].recordingStroke = nil
        if canvas.strokes[s].style.tool == .eraser, config.eraser == .stroke {
            eraseStrokesTouched(by: s, device: i, at: time, into: &effects)
            return
        }
        if canvas.strokes[s].points.capacity > 2 * canvas.strokes[s].points.count {
            canvas.strokes[s].points = canvas.strokes[s].points.withUnsafeBufferPointer { Array($0) }
        }
        record(.stroke)
        effects.events.append(.stroke(StrokeEvent(device: devices[i].id, index: s, points: canvas.strokes[s].points.count, time: time,
                                                  pen: canvas.strokes[s].pen)))
        effects.stateChanged = true
    }

    /// `[canvas] eraser = "stroke"`: the eraser stroke at `s` is not kept; every
    /// finished stroke it touched goes, whole, in one step undo takes back.
    /// Strokes other pens are drawing stay. Distances are measured where widths
    /// are, in pixels of a drawing 1600 wide at the eraser's tablet's aspect.
    private mutating func eraseStrokesTouched(by s: Int, device i: Int, at time: Microseconds, into effects: inout Effects) {
        let eraser = canvas.strokes.remove(at: s)
        canvas.pointCount -= eraser.points.count
        for d in devices.indices {
            if let r = devices[d].recordingStroke, r > s { devices[d].recordingStroke = r - 1 }
        }
        let drawing = Set(devices.compactMap(\.recordingStroke))
        let aspect = devices[i].info.area.flatMap { area -> Double? in
            guard let w = area.widthMM, let h = area.heightMM, w > 0, h > 0 else { return nil }
            return h / w
        } ?? 10.0 / 16.0
        let erased = canvas.strokes.indices.filter { index in
            !drawing.contains(index) && EraserHit.touches(eraser, canvas.strokes[index], aspect: aspect)
        }.map { ErasedStroke(index: $0, stroke: canvas.strokes[$0]) }
        if !erased.isEmpty {
            remove(erased)
            record(.erase(erased))
        }
        updateFullness()
        // Said even when nothing was touched: a canvas drew the eraser's path live and
        // draws the drawing again from `strokes`.
        effects.events.append(.canvas(canvasEvent(source: .pen, cause: .erase, at: time)))
        effects.stateChanged = true
    }

    private mutating func markFull(_ limit: CanvasFullEvent.Limit, at time: Microseconds, into effects: inout Effects) {
        guard !canvas.isFull else { return }
        canvas.isFull = true
        effects.events.append(.canvasFull(CanvasFullEvent(limit: limit, strokeCount: canvas.strokes.count, pointCount: canvas.pointCount, time: time)))
    }

    mutating func updateFullness() {
        canvas.isFull = canvas.strokes.count >= config.canvasLimits.maxStrokes || canvas.pointCount >= config.canvasLimits.maxPoints
    }
}
