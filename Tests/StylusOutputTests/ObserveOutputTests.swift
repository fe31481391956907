// SPDX-License-Identifier: MIT
import Testing
import StylusCore
import StylusOutput

@Suite("Observe output")
struct ObserveOutputTests {
    @Test func itObservesAndSaysWhy() {
        let output: any PenOutput = ObserveOutput()
        #expect(output.mode == .observe)
        #expect(output.statusReason.hasPrefix("observe: the desktop reads the pen directly; "))
        #expect(!output.statusReason.contains("filter is not possible"))
        #expect(output.pollDescriptor == nil, "it has nothing for the loop to poll")
    }

    @Test func whenFilterWasWantedTheReasonNamesWhyNotAndTheFix() {
        let output = ObserveOutput(filterUnavailable: "/dev/uinput is not writable (install the udev rule: make install)")
        #expect(output.statusReason.hasPrefix("observe: the desktop reads the pen directly; "))
        #expect(output.statusReason.hasSuffix("; filter is not possible: /dev/uinput is not writable (install the udev rule: make install)"))
    }

    @Test func itTakesEveryCallAndWritesNothing() {
        let output: any PenOutput = ObserveOutput()
        let pen = DeviceID(7)
        output.deviceAdded(OutputDevice(id: pen, info: DeviceInfo(name: "pen", kind: .pen), node: "/dev/input/event7"))
        var engine = Engine()
        var effects = Effects()
        engine.handle(.proximityIn(pen, Tool(type: .pen), PenAxes(x: 0.5, y: 0.5)), at: 1_000, into: &effects)
        engine.handle(.button(pen, .side(.stylus), pressed: true), at: 2_000, into: &effects)
        #expect(effects.output.count == 2)
        output.apply(effects)
        output.flush()
        output.descriptorReady({ _ in Issue.record("observe reads nothing") }, frameWritten: { Issue.record("observe writes no frame") })
        output.deviceRemoved(pen)
        output.close()
        #expect(output.mode == .observe, "nothing it is handed changes its mode")
    }
}
