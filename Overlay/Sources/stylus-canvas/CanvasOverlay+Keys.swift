// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore
import StylusProtocol

extension CanvasOverlay {
    /// A key the canvas does not handle itself goes to the daemon, which owns
    /// the key table (`[canvas.keys]`): an unbound key's refusal is only logged.
    func forwardKey(_ name: CanvasKeyName) {
        log("key \(name): asking stylusd")
        link.send(.key(.key(name))) { [self] error in
            if let error { MainInbox.shared.post { self.log("key \(name): \(error)") } }
        }
    }
}
