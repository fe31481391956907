// SPDX-License-Identifier: MIT
/// What `export` writes, by the file name's extension (any case).
public enum ExportFormat: String, Sendable, CaseIterable {
    case png, svg

    /// A side of an exported picture, in pixels. The renderer holds its layers, the
    /// picture and its encoding at once, several times the picture's own 4 bytes a
    /// pixel: at 4096 × 4096 (64 MiB of pixels) under half a GiB, which a local client
    /// may ask of it; a larger canvas is scaled down to fit.
    public static let sideRange = 1...4096

    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}
