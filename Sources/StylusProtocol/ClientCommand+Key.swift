// SPDX-License-Identifier: MIT
import StylusCore

extension ClientCommand {
    /// A name is at most this long: "ctrl+alt+super+shift+bracketright" is 33.
    static let maxKeyNameBytes = 64

    /// `key`'s `"key"`, read as `[canvas.keys]` reads a name.
    static func canvasKey(_ value: JSONValue?) throws(ProtocolError) -> CanvasKeyName {
        guard case .string(let text)? = value, text.utf8.count <= maxKeyNameBytes else {
            throw ProtocolError(code: .badRequest, message: "key needs \"key\": a key name of at most \(maxKeyNameBytes) bytes, e.g. \"p\", \"ctrl+z\", \"plus\"\(value.map { ", not \(quoted($0))" } ?? "")")
        }
        switch CanvasKeyName.parse(text) {
        case .success(let name): return name
        case .failure(let error): throw ProtocolError(code: .badRequest, message: error.message)
        }
    }
}
