// SPDX-License-Identifier: MIT
/// What a canvas overlay says of itself (the `overlay` command): the route
/// it took to the screen (`layer-shell`, `x11`, `wayland-toplevel`) and how
/// many outputs that route offers it.
public struct OverlayReport: Codable, Equatable, Sendable {
    public var backend: String
    public var outputs: Int
    /// The area the tablet maps to, in the desktop's logical pixels (the
    /// monitors the canvas covers): the size `export` draws at when it is
    /// given none. Nil from an overlay that does not say.
    public var width: Int?
    public var height: Int?
    public static let maxBackendLength = 32
    public static let maxOutputs = 64
    /// A side of the area, in pixels: 64 monitors of 8K side by side, and more.
    public static let sideRange = 1...1_048_576

    public init(backend: String, outputs: Int, width: Int? = nil, height: Int? = nil) {
        self.backend = backend
        self.outputs = outputs
        self.width = width
        self.height = height
    }

    static func isBackendName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maxBackendLength
            && name.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
    }
}
