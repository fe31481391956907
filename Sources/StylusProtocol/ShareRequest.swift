// SPDX-License-Identifier: MIT

/// What the daemon asks the canvas process to make (`snapshot`, `copy`): only
/// that process sees the screen and can hold a clipboard, so the daemon passes
/// the request on (the `share` event on the `canvas` topic) and answers the
/// client once the canvas says how it went (`shared`).
public enum ShareKind: String, Sendable, Equatable, CaseIterable {
    /// The screen with the ink, written to a file.
    case snapshot
    /// The drawing (as `export` writes it) on the clipboard.
    case copyDrawing = "copy-drawing"
    /// The screen with the ink on the clipboard.
    case copySnapshot = "copy-snapshot"
}

/// The canvas's answer to a `share` event: the request's number, then either
/// why it failed or what it made.
public struct ShareReply: Sendable, Equatable {
    public var request: Int
    public var error: String?
    /// The file written (a snapshot); nil for a copy.
    public var path: String?
    public var width: Int?
    public var height: Int?
    /// `screen`: the screen with the ink; `ink`: the ink alone (no capture on this desktop, or a copied drawing).
    public var scene: String?
    /// Why the picture holds the ink only, where the desktop offers no capture.
    public var note: String?

    public init(request: Int, error: String? = nil, path: String? = nil, width: Int? = nil, height: Int? = nil, scene: String? = nil, note: String? = nil) {
        self.request = request
        self.error = error
        self.path = path
        self.width = width
        self.height = height
        self.scene = scene
        self.note = note
    }

    /// Every field but `request` is optional: absent ones are left out.
    var fields: [String: JSONValue] {
        var f: [String: JSONValue] = ["request": .number(Double(request))]
        for (key, value) in [("error", error), ("path", path), ("scene", scene), ("note", note)] { if let value { f[key] = .string(value) } }
        for (key, value) in [("width", width), ("height", height)] { if let value { f[key] = .number(Double(value)) } }
        return f
    }

    static func decode(_ fields: [String: JSONValue]) throws(ProtocolError) -> ShareReply {
        guard case .number(let n)? = fields["request"], n == n.rounded(), let request = Int(exactly: n), request > 0 else {
            throw ProtocolError(code: .badRequest, message: "shared needs \"request\": the number of the share event it answers")
        }
        func text(_ key: String) throws(ProtocolError) -> String? {
            guard let value = fields[key] else { return nil }
            guard case .string(let s) = value, s.utf8.count < 4096 else {
                throw ProtocolError(code: .badRequest, message: "shared's \"\(key)\" must be a string")
            }
            return s
        }
        func side(_ key: String) throws(ProtocolError) -> Int? {
            guard let value = fields[key] else { return nil }
            guard case .number(let n) = value, n == n.rounded(), let whole = Int(exactly: n), (1...65535).contains(whole) else {
                throw ProtocolError(code: .badRequest, message: "shared's \"\(key)\" must be a whole number of pixels")
            }
            return whole
        }
        return ShareReply(request: request, error: try text("error"), path: try text("path"), width: try side("width"),
                          height: try side("height"), scene: try text("scene"), note: try text("note"))
    }
}

/// The answer to `snapshot` and `copy`.
public struct ShareResult: Codable, Equatable, Sendable {
    /// The PNG written (`snapshot`); absent for `copy`.
    public var path: String?
    public var width: Int
    public var height: Int
    /// `screen` or `ink` (see `ShareReply.scene`).
    public var scene: String
    /// Whether the picture is on the clipboard now (`copy`).
    public var copied: Bool
    public var note: String?

    public init(path: String?, width: Int, height: Int, scene: String, copied: Bool, note: String? = nil) {
        self.path = path
        self.width = width
        self.height = height
        self.scene = scene
        self.copied = copied
        self.note = note
    }
}
