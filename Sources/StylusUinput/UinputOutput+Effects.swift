// SPDX-License-Identifier: MIT
import CLibevdev
import CLinux
import StylusCore
import StylusInput
import StylusOutput
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

extension UinputOutput {
    public func apply(_ effects: Effects) {
        for effect in effects.output {
            switch effect {
            case .canvas(let state, _):
                canvas = state
                for n in nodes.values where n.grabbed {
                    n.filter.apply(effect, into: &out)
                    write(n)
                }
            case .frame, .button, .pendingCleared:
                // A node not grabbed reaches the desktop itself: nothing of it goes to a clone.
                guard let n = nodes[Self.device(of: effect)], n.grabbed else { continue }
                n.filter.apply(effect, into: &out)
                write(n)
            }
        }
    }

    /// The node an effect is for; a canvas effect goes to every grabbed node (`DeviceID(0)` names none).
    static func device(of effect: OutputEffect) -> DeviceID {
        switch effect {
        case .frame(let f): f.device
        case .button(let b): b.device
        case .pendingCleared(let p): p.device
        case .canvas: DeviceID(0)
        }
    }
}
