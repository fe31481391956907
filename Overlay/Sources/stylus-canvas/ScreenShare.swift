// SPDX-License-Identifier: MIT
import CanvasModel

/// What a backend offers for `snapshot` and `copy`, where the desktop lets a
/// client do it: reading the screen, and holding a picture on the clipboard.
@MainActor
protocol ScreenShare: AnyObject {
    /// Whether this desktop lets the canvas read the screen at all; without, a snapshot holds the ink only.
    var capturesScreen: Bool { get }
    /// The monitor's pixels as the screen shows them now, as a cairo ARGB32
    /// image (opaque), after the canvas drew its frame without chrome; or why not.
    func captureScreen(_ monitor: MonitorShape) -> Result<OpaquePointer, ShareFailure>
    /// Holds `png` as the clipboard's image/png until something else is copied; nil, or why not.
    func holdClipboard(_ png: [UInt8]) -> String?
}

/// Why a snapshot, a copy or a drawing's PNG could not be made, in words for the client.
struct ShareFailure: Error, ExpressibleByStringInterpolation {
    let message: String
    /// The desktop refused the capture (KWin without the canvas's desktop file): the snapshot
    /// holds the ink alone, with `message` as its note, as where no capture exists.
    var inkInstead = false
    init(stringLiteral value: String) { message = value }
}
