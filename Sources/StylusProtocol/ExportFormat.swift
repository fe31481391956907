// SPDX-License-Identifier: MIT
/// What `export` writes, by the file name's extension (any case).
public enum ExportFormat: String, Sendable, CaseIterable {
    case png, svg

    /// A side of an exported picture, in pixels: an 8K screen (7680 × 4320) at its
    /// native size. The renderer draws and encodes the picture in bands of rows, so its
    /// memory follows the width, not the area (docs/PERFORMANCE.md gives the peak);
    /// a larger canvas (a wall of monitors) is scaled down to fit.
    public static let sideRange = 1...8192

    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}
