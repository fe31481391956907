// SPDX-License-Identifier: MIT
import StylusCore

/// One evdev event as a virtual pen (the clone) is to get it.
public struct EvdevEvent: Equatable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    public var time: Microseconds

    public init(type: UInt16, code: UInt16, value: Int32, time: Microseconds) {
        self.type = type
        self.code = code
        self.value = value
        self.time = time
    }

    public var isReport: Bool { type == EV.syn && code == SYN.report }
}
