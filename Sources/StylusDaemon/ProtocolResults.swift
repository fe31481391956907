// SPDX-License-Identifier: MIT
import StylusCore
import StylusInput
import StylusProtocol

extension StatusResult {
    /// The engine's state as `status` reports it.
    /// - Parameter unavailable: why an action cannot work here, with the fix (nil when it can).
    init(engine: Engine, buttonOnlyReason: String?, output: OutputInfo? = nil, overlay: OverlayReport? = nil, changed: Bool? = nil, reason: String? = nil,
         unavailable: (Action) -> String? = { _ in nil }) {
        let c = engine.canvas
        let devices = engine.deviceIDs.compactMap { id in
            engine.deviceInfo(id).map {
                DeviceInfoResult(device: id.rawValue, name: $0.name, kind: $0.kind.rawValue,
                                 widthMM: $0.area?.widthMM.map(Self.tenths), heightMM: $0.area?.heightMM.map(Self.tenths), direct: $0.area?.direct,
                                 bus: $0.area?.bustype.map(DeviceInfoResult.busName), vendor: $0.area?.vendor.map(Int.init))
            }
        }
        let hasPen = devices.contains { $0.kind == "pen" }
        self.init(
            canvas: CanvasInfo(state: c.state.rawValue, hasContent: c.hasContent, strokeCount: c.strokes.count,
                               pointCount: c.pointCount, full: c.isFull, pointer: engine.config.pointer.rawValue, indicator: engine.config.indicator.rawValue,
                               background: c.background.name, keys: engine.config.canvasKeyTable.map { KeyInfo(key: $0.key, action: $0.action) }),
            precision: PrecisionInfo(enabled: engine.precisionEnabled, active: engine.precisionActive),
            input: InputInfo(mode: hasPen ? "pen" : "button-only", reason: hasPen ? nil : buttonOnlyReason, devices: devices),
            config: ConfigInfo(intervalMS: engine.config.doublePressIntervalMS, debounceMS: engine.config.debounceMS,
                               transitionMS: engine.config.transitionMS, fullSpeedPressure: engine.config.precision.fullSpeedPressure,
                               preset: engine.config.preset,
                               bindings: engine.config.boundButtons.map { BindingInfo(button: $0.button.description, action: $0.action.rawValue,
                                                                                      unavailable: unavailable($0.action)) }
                                   + engine.config.penBindings.map { BindingInfo(button: $0.button, action: $0.action.rawValue,
                                                                                unavailable: unavailable($0.action), pen: $0.pen) }),
            output: output, overlay: overlay, tool: ToolInfo(c.style, palette: engine.paletteShown, colors: engine.config.palette, pen: c.pens.tools.first?.name), changed: changed, reason: reason)
    }

    /// Millimetres to a tenth: what a size needs, without 15 digits of binary fraction.
    static func tenths(_ mm: Double) -> Double { (mm * 10).rounded() / 10 }
}

extension DevicesResult {
    /// The probe's report in the protocol's shape (the same JSON, key for key).
    package init(_ report: ProbeReport) {
        self.init(nodes: report.nodes.map(Node.init), buttonOnlyReason: report.buttonOnlyReason)
    }
}

extension DevicesResult.Node {
    init(_ node: ProbedNode) {
        self.init(path: node.path, name: node.name, id: node.id, kind: Kind(rawValue: node.kind.rawValue) ?? .other,
                  error: node.error, looksLikePen: node.looksLikePen, pen: node.pen, pad: node.pad)
    }
}
