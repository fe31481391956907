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
    /// The GNOME Shell extension's variant (`43`: GNOME 43-44, `45`: 45-48) and
    /// the version of the GNOME Shell that loaded it, so that status can say
    /// which copy runs where; nil from stylus-canvas.
    public var variant: String?
    public var shell: String?
    public static let maxBackendLength = 32
    /// `variant` and `shell`: a version's digits and dots ("45", "48.7", "43.beta" is refused).
    public static let maxVersionLength = 16
    public static let maxOutputs = 64
    /// A side of the area, in pixels: 64 monitors of 8K side by side, and more.
    public static let sideRange = 1...1_048_576

    public init(backend: String, outputs: Int, width: Int? = nil, height: Int? = nil, variant: String? = nil, shell: String? = nil) {
        self.backend = backend
        self.outputs = outputs
        self.width = width
        self.height = height
        self.variant = variant
        self.shell = shell
    }

    static func isVersion(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxVersionLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2e }
    }

    static func isBackendName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maxBackendLength
            && name.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
    }
}
