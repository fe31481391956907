// SPDX-License-Identifier: MIT
extension Engine {
    func index(of id: DeviceID) -> Int? {
        devices.firstIndex(where: { $0.id == id })
    }

    /// Input from a device nobody announced (a recording without a header
    /// event, a race with hotplug) still counts: the device is adopted.
    mutating func ensureDevice(_ id: DeviceID) -> Int {
        if let i = index(of: id) { return i }
        devices.append(DeviceState(id: id, info: DeviceInfo(name: "", kind: .pen)))
        return devices.count - 1
    }

    func emitSample(device i: Int, at time: Microseconds, into effects: inout Effects) {
        guard publishesSamples else { return }
        let d = devices[i]
        effects.samples.append(PenSample(
            // A tap on the palette reads as a tip in the air: no canvas draws live ink for it.
            device: d.id, tool: (d.tool ?? d.lastTool)?.type ?? .pen, axes: d.axes, tipDown: d.tipDown && !d.onPalette,
            adjustedX: d.adjustedX, adjustedY: d.adjustedY, scale: d.tipDown && precisionEnabled ? d.scale : 1, time: time,
            pen: d.penName))
    }
}
