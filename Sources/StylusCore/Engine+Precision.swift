// SPDX-License-Identifier: MIT
extension Engine {
    mutating func setPrecision(enabled: Bool, source: ChangeSource, at time: Microseconds, into effects: inout Effects) {
        precisionEnabled = enabled
        effects.stateChanged = true
        for i in devices.indices {
            // Position restarts from the raw position, so nothing drifts.
            devices[i].adjustedX = devices[i].axes.x
            devices[i].adjustedY = devices[i].axes.y
            let (active, scale) = precisionTarget(device: i)
            devices[i].precisionActive = active
            devices[i].scale = scale
            devices[i].reportedScale = scale
        }
        effects.events.append(.precision(PrecisionEvent(
            device: nil, enabled: enabled, active: precisionActive,
            scale: devices.first(where: { $0.precisionActive })?.scale ?? 1, source: source, time: time)))
    }

    private func precisionTarget(device i: Int) -> (active: Bool, scale: Double) {
        let d = devices[i]
        guard precisionEnabled, d.tipDown, !d.id.isCanvasSource else { return (false, 1) }
        let p = config.precision
        let active = d.precisionActive
            ? d.axes.pressure < p.fullSpeedPressure
            : d.axes.pressure < p.fullSpeedPressure - p.hysteresis
        return (active, curve.scale(pressure: d.axes.pressure))
    }

    mutating func updatePrecision(device i: Int, at time: Microseconds, into effects: inout Effects) {
        let (active, scale) = precisionTarget(device: i)
        devices[i].scale = scale
        let activeChanged = active != devices[i].precisionActive
        let scaleMoved = abs(scale - devices[i].reportedScale) >= config.precision.reportStep
        guard activeChanged || (active && scaleMoved) else { return }
        devices[i].precisionActive = active
        devices[i].reportedScale = scale
        effects.events.append(.precision(PrecisionEvent(
            device: devices[i].id, enabled: precisionEnabled, active: active, scale: scale, source: nil, time: time)))
    }
}
