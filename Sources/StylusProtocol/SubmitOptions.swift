// SPDX-License-Identifier: MIT

/// What `submit` makes besides ending the drawing: the picture's scene, and
/// whether it comes back in the answer (and the canvas event) instead of as a file.
public struct SubmitOptions: Sendable, Equatable {
    /// The PNG as base64 in `png_base64`, no file left behind.
    public var inline: Bool
    /// Nil: the configured default (the ink).
    public var scene: SubmitScene?

    /// A PNG larger than this is refused inline (a socket line of base64 a third bigger
    /// still reads in one go); the path form has no such limit.
    public static let inlineLimitBytes = 8 << 20

    public init(inline: Bool = false, scene: SubmitScene? = nil) {
        self.inline = inline
        self.scene = scene
    }

    var fields: [String: JSONValue] {
        var f: [String: JSONValue] = [:]
        if inline { f["inline"] = .bool(true) }
        if let scene { f["scene"] = .string(scene.rawValue) }
        return f
    }

    /// Nil when the request names neither field (a plain `submit`).
    static func decode(_ fields: [String: JSONValue]) throws(ProtocolError) -> SubmitOptions? {
        guard fields["inline"] != nil || fields["scene"] != nil else { return nil }
        var options = SubmitOptions()
        switch fields["inline"] {
        case nil: break
        case .bool(let b)?: options.inline = b
        case let value?: throw ProtocolError(code: .badRequest, message: "submit's \"inline\" is true or false, not \(ClientCommand.quoted(value))")
        }
        if let value = fields["scene"] {
            guard case .string(let name) = value, let scene = SubmitScene(rawValue: name) else {
                throw ProtocolError(code: .badRequest, message: "submit's \"scene\" is \"ink\" or \"screen\", not \(ClientCommand.quoted(value))")
            }
            options.scene = scene
        }
        return options
    }
}

/// What a submitted picture shows.
public enum SubmitScene: String, Sendable, Equatable, CaseIterable {
    /// The drawing as `export` writes it.
    case ink
    /// The screen with the ink, as `snapshot` takes it.
    case screen
}
