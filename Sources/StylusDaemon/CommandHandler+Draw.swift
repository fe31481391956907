// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol

extension CommandHandler {
    /// The answer to a piece of a canvas's pointer or touch stroke, once the engine took it
    /// (stamped with the daemon's monotonic time when the line arrived).
    func drawn(_ request: DrawRequest, _ outcome: CommandOutcome, _ id: JSONValue) -> [UInt8] {
        switch outcome {
        case .refused(let reason): return Response.failure(id: id, ProtocolError(code: .refused, message: reason))
        case .done, .unchanged:
            let stroke = engine.strokeInProgress(request.source)
            return Response.success(id: id, DrawResult(source: request.source.rawValue, phase: request.phase.rawValue,
                                                       stroke: stroke, points: stroke.map { engine.canvas.strokes[$0].points.count } ?? 0))
        }
    }
}
