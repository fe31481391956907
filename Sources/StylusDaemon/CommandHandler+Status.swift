// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `status`: what it reports, and its last answer kept for a status asked again.
extension CommandHandler {
    /// The report of an overlay that still runs: kill(pid, 0) checks without signalling.
    var runningOverlay: OverlayReport? {
        guard let overlay else { return nil }
        guard let pid = overlay.pid else { return overlay.report }
        return kill(pid, 0) == 0 || errno == EPERM ? overlay.report : nil
    }

    /// Everything `status` reports, cheap to compare: a status asked for
    /// again with nothing changed is the bytes of the last one, not a new
    /// encoding (a client polling status, or a reload loop, costs a copy).
    struct StatusKey: Equatable {
        var canvas: CanvasState, strokes: Int, points: Int, full: Bool, hasContent: Bool, style: StrokeStyle, palette: Bool
        var background: CanvasBackground
        var precisionEnabled: Bool, precisionActive: Bool
        var devices: [DeviceID], buttonOnlyReason: String?
        var config: EngineConfig
        var output: StatusResult.OutputInfo
        var overlay: OverlayReport?
        var changed: Bool?, reason: String?
        var unavailable: [String?]
    }

    /// The status answer; `changed` and `reason` say what a command did.
    func status(_ id: JSONValue, changed: Bool? = nil, reason: String? = nil) -> [UInt8] {
        let c = engine.canvas
        let output = outputStatus()
        let overlay = runningOverlay
        let key = StatusKey(canvas: c.state, strokes: c.strokes.count, points: c.pointCount, full: c.isFull, hasContent: c.hasContent, style: c.style, palette: engine.paletteShown, background: c.background,
                            precisionEnabled: engine.precisionEnabled, precisionActive: engine.precisionActive,
                            devices: engine.deviceIDs, buttonOnlyReason: buttonOnlyReason, config: engine.config,
                            output: output, overlay: overlay, changed: changed, reason: reason,
                            unavailable: (engine.config.boundButtons.map(\.action) + engine.config.penBindings.map(\.action)).map(actionUnavailable))
        if let cached = statusCache[changed], cached.key == key {
            return Response.success(id: id, encodedResult: cached.encoded)
        }
        let encoded = Response.EncodedResult(status: StatusResult(engine: engine, buttonOnlyReason: buttonOnlyReason, output: output, overlay: overlay,
                                                                  changed: changed, reason: reason, unavailable: actionUnavailable))
        statusCache[changed] = (key, encoded)
        return Response.success(id: id, encodedResult: encoded)
    }

    /// The picture size of an export that names none: the area the tablet maps to, as the
    /// running canvas reports it (its monitors), else as the pens' proportions suggest
    /// (`Exporter.defaultSize`).
    var defaultExportSize: (width: Int, height: Int) {
        if let area = runningOverlay, let width = area.width, let height = area.height {
            return Exporter.fitted(width: width, height: height)
        }
        return Exporter.defaultSize(pens: engine.deviceIDs.compactMap { engine.deviceInfo($0)?.area })
    }
}
