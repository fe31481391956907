// SPDX-License-Identifier: MIT
public import StylusCore

/// `devices`: the daemon's probe of /dev/input. Mirrors StylusInput's probe
/// report key for key (the daemon converts it).
public struct DevicesResult: Codable, Equatable, Sendable {
    public struct Node: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable { case pen, pad, other, unreadable }
        public var path: String
        public var name: String
        /// "vvvv:pppp" in hex, as lsusb writes it.
        public var id: String?
        public var kind: Kind
        /// Why the node could not be read, with the fix.
        public var error: String?
        /// For an unreadable node: whether sysfs says it is a pen (`looks_like_pen` on the wire, snake_case as every key).
        public var looksLikePen: Bool?
        public var pen: Pen?
        public var pad: Pad?

        enum CodingKeys: String, CodingKey {
            case path, name, id, kind, error, looksLikePen = "looks_like_pen", pen, pad
        }

        public init(path: String, name: String, id: String? = nil, kind: Kind, error: String? = nil,
                    looksLikePen: Bool? = nil, pen: Pen? = nil, pad: Pad? = nil) {
            self.path = path
            self.name = name
            self.id = id
            self.kind = kind
            self.error = error
            self.looksLikePen = looksLikePen
            self.pen = pen
            self.pad = pad
        }
    }

    public typealias Pen = PenCapabilities
    public typealias Pad = PadCapabilities

    public var nodes: [Node]
    /// Nil when at least one pen is usable; otherwise why stylusd runs button-only.
    public var buttonOnlyReason: String?

    enum CodingKeys: String, CodingKey {
        case nodes, buttonOnlyReason = "button_only_reason"
    }

    public init(nodes: [Node], buttonOnlyReason: String?) {
        self.nodes = nodes
        self.buttonOnlyReason = buttonOnlyReason
    }
}
