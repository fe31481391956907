// SPDX-License-Identifier: MIT
import StylusClient
import StylusProtocol

extension DaemonLink {
    /// The canvas's key table as the daemon acts by it now (`status` canvas.keys), on a
    /// thread of its own; nil when it could not be asked or is too old to say.
    func keyTable(_ done: @escaping @Sendable ([(key: String, action: String)]?) -> Void) {
        let path = path
        Self.detached {
            done((try? StylusConnection(path: path).status())?.canvas.keys.map { $0.map { (key: $0.key, action: $0.action) } })
        }
    }
}
