// SPDX-License-Identifier: MIT
import StylusCore

// The canvas draws the daemon's styles: the tool, the colour and the width
// rule are StylusCore's, so stylusd, stylusctl's SVG and every canvas agree.
public typealias InkTool = DrawingTool
public typealias InkColor = StrokeColor
public typealias InkStyle = StrokeStyle

extension StrokeStyle {
    /// A segment's width in reference pixels at its points' pressures.
    public func referenceWidth(_ a: InkPoint, _ b: InkPoint) -> Double { referenceWidth(pressure: a.pressure, b.pressure) }
}
