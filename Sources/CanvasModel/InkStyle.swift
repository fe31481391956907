// SPDX-License-Identifier: MIT
import StylusCore

// The canvas draws the daemon's styles: the tool, the colour and the width
// rule are StylusCore's, so stylusd, stylusctl's SVG and every canvas agree.
public typealias InkTool = DrawingTool
public typealias InkColor = StrokeColor
public typealias InkStyle = StrokeStyle
/// A palette button as the daemon hears of it (`palette-regions`).
public typealias InkRegion = PaletteRegion

extension StrokeStyle {
    /// The colours a palette offers until the daemon says its own (`[canvas] palette`).
    public static let paletteDefault = StyleRequest.defaultPalette

    /// A segment's width in reference pixels at its points' pressures.
    public func referenceWidth(_ a: InkPoint, _ b: InkPoint) -> Double { referenceWidth(pressure: a.pressure, b.pressure) }
}
