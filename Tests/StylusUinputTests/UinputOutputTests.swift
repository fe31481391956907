// SPDX-License-Identifier: MIT
import CLibevdev
import StylusCore
import StylusInput
import StylusOutput
@testable import StylusUinput
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What filter mode decides without opening /dev/uinput or a node: the
/// events it writes, which keys hold a grab back, which node an effect is
/// for, and the names that keep its devices out of stylusd's own monitor.
@Suite("uinput output, without uinput")
struct UinputOutputTests {
    static let pen: DeviceDescription = {
        var d = DeviceDescription(name: "Test Pen")
        for code in [BTN.toolPen, BTN.touch, BTN.stylus, BTN.stylus2] { d.enable(type: EV.key, code: code) }
        for code in [ABS.x, ABS.y, ABS.pressure] { d.enable(type: EV.abs, code: code) }
        return d
    }()

    static func pad(finger: Bool) -> DeviceDescription {
        var d = DeviceDescription(name: "Test Pad")
        for code in [BTN.n0, BTN.n0 + 1, BTN.n0 + 2] { d.enable(type: EV.key, code: code) }
        if finger { d.enable(type: EV.key, code: BTN.toolFinger) }
        d.enable(type: EV.abs, code: ABS.x)
        return d
    }

    @Test func theClonesEventsGoOutAsTheyCameInOrderWithTheTimeLeftToTheKernel() {
        let events = [
            EvdevEvent(type: EV.key, code: BTN.stylus, value: 1, time: 1_000_123),
            EvdevEvent(type: EV.abs, code: ABS.x, value: -7, time: 1_000_123),
            EvdevEvent(type: EV.syn, code: SYN.report, value: 0, time: 1_000_123),
        ]
        var wire = [input_event](repeating: input_event(), count: 5)
        UinputOutput.wireEvents(events, into: &wire)
        #expect(wire.map(\.type) == events.map(\.type))
        #expect(wire.map(\.code) == events.map(\.code))
        #expect(wire.map(\.value) == events.map(\.value))
        #expect(wire.allSatisfy { $0.time.tv_sec == 0 && $0.time.tv_usec == 0 })
        UinputOutput.wireEvents([], into: &wire)
        #expect(wire.isEmpty)
    }

    @Test func aPenIsGrabbedOnlyWithNoToolNearAndNoButtonOrTipDown() {
        let keys = UinputOutput.mustBeUp(Self.pen)
        for code in [BTN.toolPen, BTN.toolRubber, BTN.touch, BTN.stylus, BTN.stylus2, BTN.stylus3] {
            #expect(keys.contains(code))
        }
    }

    @Test(arguments: [false, true])
    func aPadIsGrabbedOnlyWithItsButtonsUpAndNoFingerOnItsRing(finger: Bool) {
        let pad = Self.pad(finger: finger)
        #expect(UinputOutput.mustBeUp(pad) == pad.padButtonCodes + (finger ? [BTN.toolFinger] : []))
    }

    @Test func aKeyIsDownWhereItsBitIsSetInTheKernelsKeyState() {
        var bits = [UInt8](repeating: 0, count: UinputOutput.keyBytes)
        #expect(!UinputOutput.isDown(BTN.stylus, in: bits))
        bits[Int(BTN.stylus) / 8] |= 1 << (BTN.stylus % 8)
        #expect(UinputOutput.isDown(BTN.stylus, in: bits))
        #expect(!UinputOutput.isDown(BTN.stylus2, in: bits))
        #expect(!UinputOutput.isDown(BTN.touch, in: bits))
        // KEY_MAX is 0x2ff: its bit is the array's last.
        bits[UinputOutput.keyBytes - 1] = 0x80
        #expect(UinputOutput.isDown(0x2ff, in: bits))
    }

    @Test func theKeyStateRequestIsEVIOCGKEYForEveryKey() {
        // _IOC(_IOC_READ, 'E', 0x18, (KEY_MAX + 1) / 8), as <linux/input.h> spells it.
        #expect(UinputOutput.keyBytes == 96)
        #expect(UinputOutput.EVIOCGKEY == 0x8060_4518)
    }

    @Test func eachEffectGoesToTheNodeItCameFrom() {
        let device = DeviceID(7)
        let frame = PenFrame(device: device, kind: .motion, inProximity: true, tipDown: false, x: 0.5, y: 0.5,
                             adjustedX: 0.5, adjustedY: 0.5, time: 10)
        let button = ButtonDecision(device: device, button: .side(.stylus), pressed: true, verdict: .passed, time: 10)
        let pending = PendingPress(device: device, button: .side(.stylus), firstPress: 5, time: 10)
        #expect(UinputOutput.device(of: .frame(frame)) == device)
        #expect(UinputOutput.device(of: .button(button)) == device)
        #expect(UinputOutput.device(of: .pendingCleared(pending)) == device)
        #expect(UinputOutput.device(of: .canvas(.opening, time: 10)) == DeviceID(0))
    }

    @Test func theVirtualDevicesAreNamedSoStylusdsOwnMonitorSkipsThem() {
        for name in [ActionDevices.keyboardName, ActionDevices.pointerName, "Test Pen" + UinputOutput.nameSuffix] {
            #expect(name.hasSuffix(LibinputMonitor.cloneNameSuffix))
        }
        for phys in [ActionDevices.keyboardPhys, ActionDevices.pointerPhys, UinputOutput.physPrefix + "event5"] {
            #expect(phys.hasPrefix(LibinputMonitor.clonePhysPrefix))
        }
        #expect(ActionDevices.keyboardName != ActionDevices.pointerName)
        #expect(ActionDevices.keyboardPhys != ActionDevices.pointerPhys)
    }
}
