// SPDX-License-Identifier: MIT
struct DeviceState {
    var id: DeviceID
    var info: DeviceInfo
    var tool: Tool?
    /// The last tool seen in proximity, to tell "a different tool" from a return.
    var lastTool: Tool?
    /// Who `lastTool` is in the engine's tool table.
    var pen: PenToolID?
    /// That tool's name, kept here so that a pen sample carries it without building it anew.
    var penName: String?
    /// That tool's `[pens.NAME] curve`, sampled; nil: the pressure as reported.
    var pressureShape: PressureTable?
    var tipDown = false
    var buttons = [ButtonTracker](repeating: ButtonTracker(), count: ButtonID.slotCount)
    /// Slots below this have seen a press: what a scan for pending presses
    /// looks at (three for a pen, not all 67, at every pen sample).
    var slotsPressed = 0
    var axes = PenAxes()
    var adjustedX = 0.0
    var adjustedY = 0.0
    var precisionActive = false
    var scale = 1.0
    var reportedScale = 1.0
    /// Index into `canvas.strokes` of the stroke this pen is drawing.
    var recordingStroke: Int?
    /// The tip went down on the palette: until it lifts, this contact selected
    /// and draws nothing, even where it slides off the palette.
    var onPalette = false

    init(id: DeviceID, info: DeviceInfo) {
        self.id = id
        self.info = info
    }
}
