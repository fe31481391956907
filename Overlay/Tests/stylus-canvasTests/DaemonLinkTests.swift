// SPDX-License-Identifier: MIT
import CanvasModel
import StylusProtocol
@testable import stylus_canvas
import Testing

/// A daemon's event line, as the subscription receives it, in the overlay's terms.
private func update(_ json: String) -> DaemonUpdate? {
    guard case .event(let event)? = ServerLine.decode(Array((json + "\n").utf8)) else {
        Issue.record("not an event line: \(json)")
        return nil
    }
    return DaemonLink.translate(event)
}

@Test func penSamplesKeepTheirPointAndTip() {
    #expect(update(#"{"event":"pen","device":3,"tool":"eraser","x":0.25,"y":0.5,"pressure":0.75,"tip":true}"#)
        == .pen(device: 3, tool: .eraser, point: InkPoint(x: 0.25, y: 0.5, pressure: 0.75), tip: true))
    // No tool, pressure or tip: a pen hovering.
    #expect(update(#"{"event":"pen","device":1,"x":0.1,"y":0.2}"#)
        == .pen(device: 1, tool: .pen, point: InkPoint(x: 0.1, y: 0.2, pressure: 0), tip: false))
    #expect(update(#"{"event":"pen","device":1,"x":0.1}"#) == nil)
}

@Test func proximityCanvasAndStrokeEvents() {
    #expect(update(#"{"event":"proximity","device":2,"state":"in"}"#) == .proximity(device: 2, inProximity: true))
    #expect(update(#"{"event":"proximity","device":2,"state":"out"}"#) == .proximity(device: 2, inProximity: false))
    #expect(update(#"{"event":"canvas","state":"opening","cause":"double_press","stroke_count":4}"#)
        == .canvas(.opening, cause: "double_press", strokeCount: 4))
    #expect(update(#"{"event":"canvas","state":"sideways"}"#) == nil)
    #expect(update(#"{"event":"stroke","index":7}"#) == .strokeRecorded(index: 7))
}

@Test func toolEventsBecomeTheStyle() {
    #expect(update(##"{"event":"tool","tool":"highlighter","color":"#00ff00","width":12}"##)
        == .style(InkStyle(tool: .highlighter, color: InkColor(hex: "#00ff00")!, width: 12)))
    // A daemon that says no colour or width: red at the default width.
    #expect(update(#"{"event":"tool","tool":"pen"}"#) == .style(InkStyle(tool: .pen, color: .red, width: InkStyle.defaultWidth)))
    #expect(update(#"{"event":"tool"}"#) == nil)
}

@Test func outputEventsSayWhetherThePenIsCaptured() {
    #expect(update(#"{"event":"output","mode":"filter","captures_pen":false}"#) == .capturesPen(false))
    #expect(update(#"{"event":"output","mode":"observe","captures_pen":true}"#) == .capturesPen(true))
    // A daemon older than captures_pen captured in every filter mode.
    #expect(update(#"{"event":"output","mode":"filter"}"#) == .capturesPen(true))
    #expect(update(#"{"event":"output","mode":"observe"}"#) == .capturesPen(false))
}

@Test func otherEventsAreNotTheOverlays() {
    #expect(update(#"{"event":"device","action":"added"}"#) == nil)
}
