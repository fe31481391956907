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
    final class Node {
        let id: DeviceID
        let path: String
        let fd: Int32
        let dev: OpaquePointer
        let description: DeviceDescription
        /// The clone, from the first grab on.
        var uinput: OpaquePointer?
        var translator: EvdevTranslator
        var filter: CloneFilter
        var grabbed = false
        /// In the epoll set; false once the node reported it is gone.
        var readable = true
        var frame: [EvdevEvent] = []
        /// A write to the clone failed once (logged once, not at 1 kHz).
        var writeFailed = false
        let isPen: Bool
        /// The keys that must be up before the node is grabbed: a grab while
        /// one is down would leave it stuck down for the desktop.
        let mustBeUp: [UInt16]

        init(id: DeviceID, path: String, fd: Int32, dev: OpaquePointer, description: DeviceDescription, filter: FilterConfig) {
            self.id = id
            self.path = path
            self.fd = fd
            self.dev = dev
            self.description = description
            translator = EvdevTranslator(device: id, description: description)
            self.filter = CloneFilter(device: id, description: description, filter: filter)
            isPen = description.isPen
            mustBeUp = UinputOutput.mustBeUp(description)
            frame.reserveCapacity(32)
        }
    }
}
