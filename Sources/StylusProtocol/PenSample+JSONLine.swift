// SPDX-License-Identifier: MIT
public import StylusCore

extension PenSample {
    /// The `pen` topic's per-sample line.
    public func jsonLine(into buffer: [UInt8]) -> [UInt8] {
        var w = JSONWriter(lineInto: buffer)
        w.string("event", "pen")
        w.int("device", device.rawValue)
        w.string("tool", tool.rawValue)
        if let pen { w.string("pen", pen) }
        w.double("x", axes.x)
        w.double("y", axes.y)
        w.double("pressure", axes.pressure)
        w.double("tilt_x", axes.tiltX)
        w.double("tilt_y", axes.tiltY)
        w.bool("tip", tipDown)
        w.double("adjusted_x", adjustedX)
        w.double("adjusted_y", adjustedY)
        w.double("scale", scale)
        w.int("time_us", time)
        return w.finishLine()
    }
}
