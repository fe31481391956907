// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

extension CanvasOverlay {
    /// A key the canvas does not handle itself goes to the daemon, which owns
    /// the key table (`[canvas.keys]`): an unbound key's refusal is only logged.
    func forwardKey(_ name: CanvasKeyName) {
        log("key \(name): asking stylusd")
        link.send(.key(name)) { [self] error in
            if let error { MainInbox.shared.post { log("key \(name): \(error)") } }
        }
    }
}
