// SPDX-License-Identifier: MIT
import StylusCore
import StylusOutput
import Testing

@Suite("A tap on the palette never reaches the desktop through the clone")
struct PaletteTapCloneTests {
    /// Filter mode with capture off: the clone follows the pen while the canvas is open.
    static func filter() -> CloneFilter {
        var f = FilterConfig()
        f.captureWhileCanvasOpen = false
        return CloneFilter(device: DeviceID(1), description: CloneFilterProperties.description, filter: f)
    }

    static func frame(onPalette: Bool, tip: Bool, at ms: Int) -> OutputEffect {
        .frame(PenFrame(device: DeviceID(1), kind: tip ? .tipDown : .tipUp, inProximity: true, tipDown: tip, x: 0.1, y: 0.9,
                        adjustedX: 0.1, adjustedY: 0.9, time: Microseconds(ms) * 1000, onPalette: onPalette))
    }

    static func events(_ list: [(UInt16, UInt16, Int32)], at ms: Int) -> [EvdevEvent] {
        list.map { EvdevEvent(type: $0.0, code: $0.1, value: $0.2, time: Microseconds(ms) * 1000) }
    }

    @Test func theTapsTouchAndPressureAreWithheldAndTheNextTouchPasses() {
        var filter = Self.filter()
        var out: [EvdevEvent] = []
        filter.apply(.canvas(.open, time: 0), into: &out)
        #expect(!filter.captured)
        filter.rawFrame(Self.events([(EV.key, BTN.toolPen, 1), (EV.abs, ABS.x, 2000), (EV.abs, ABS.y, 10800)], at: 1), at: 1000, into: &out)
        out.removeAll()
        // The tap: the engine's frame says the tip is on the palette, then the real node's frame.
        filter.apply(Self.frame(onPalette: true, tip: true, at: 10), into: &out)
        filter.rawFrame(Self.events([(EV.key, BTN.touch, 1), (EV.abs, ABS.pressure, 900)], at: 10), at: 10_000, into: &out)
        filter.apply(Self.frame(onPalette: false, tip: false, at: 60), into: &out)
        filter.rawFrame(Self.events([(EV.abs, ABS.pressure, 0), (EV.key, BTN.touch, 0)], at: 60), at: 60_000, into: &out)
        #expect(!out.contains { $0.type == EV.key && $0.code == BTN.touch }, "the desktop saw the tap touch: \(out)")
        #expect(out.filter { $0.type == EV.abs && $0.code == ABS.pressure }.allSatisfy { $0.value == 0 }, "pressure is a tip to libinput")
        out.removeAll()
        // A stroke elsewhere reaches the desktop as it is.
        filter.apply(Self.frame(onPalette: false, tip: true, at: 200), into: &out)
        filter.rawFrame(Self.events([(EV.key, BTN.touch, 1), (EV.abs, ABS.pressure, 700)], at: 200), at: 200_000, into: &out)
        #expect(out.contains { $0.type == EV.key && $0.code == BTN.touch && $0.value == 1 })
        #expect(out.contains { $0.type == EV.abs && $0.code == ABS.pressure && $0.value == 700 })
    }
}
