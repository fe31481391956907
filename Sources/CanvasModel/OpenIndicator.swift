// SPDX-License-Identifier: MIT
import StylusCore

/// Where the open-canvas sign goes (`[canvas] indicator`) on a surface of a
/// monitor's size, in window pixels, from the spec's `indicator` sizes: the
/// frame's four edges (not overlapping, so each pixel is painted once at the
/// spec's opacity), or the box round the badge. Held with the extension's
/// `indicatorRects` to the spec's `indicator` vectors.
/// The overlay's name for `[canvas] indicator`, as `InkBoard` is for the board.
public typealias InkIndicator = CanvasIndicator

public enum OpenIndicator {
    public static func rects(_ kind: CanvasIndicator, width: Double, height: Double) -> [PixelRect] {
        guard width > 0, height > 0 else { return [] }
        switch kind {
        case .none:
            return []
        case .frame:
            let w = CanvasSpec.indicatorFrameWidth
            return [PixelRect(x: 0, y: 0, width: width, height: w), PixelRect(x: 0, y: height - w, width: width, height: w),
                    PixelRect(x: 0, y: w, width: w, height: height - 2 * w), PixelRect(x: width - w, y: w, width: w, height: height - 2 * w)]
        case .badge:
            let r = CanvasSpec.indicatorBadgeRadius + CanvasSpec.indicatorBadgeOutline + 1
            let (x, y) = badgeCentre(width: width)
            return [PixelRect(x: (x - r).rounded(.down), y: (y - r).rounded(.down), width: 2 * r + 2, height: 2 * r + 2)]
        }
    }

    public static func badgeCentre(width: Double) -> (x: Double, y: Double) {
        (width - CanvasSpec.indicatorBadgeInset, CanvasSpec.indicatorBadgeInset)
    }
}
