// SPDX-License-Identifier: MIT
import StylusCore
import StylusSystem
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `export` and `submit`: checked in the turn, written by a helper (Exporter), answered when it ends.
extension Daemon {
    /// Checks an `export` or `submit` and hands it to a helper; nil once
    /// queued (the answer comes in `finishExports`), else why not.
    func startExport(_ request: CommandHandler.ExportRequest, waiter: Exporter.Waiter) -> ProtocolError? {
        let target: Result<Exporter.Target, ProtocolError>
        let size = handler.defaultExportSize
        switch request {
        case .file(let path, let width, let height):
            target = Exporter.target(path: path, width: width ?? size.width, height: height ?? size.height)
        case .submit:
            // Refused before anything is written, as a command and as a bound action alike:
            // a drawing cannot end while the canvas opens.
            if handler.engine.canvas.state == .opening { return ProtocolError(code: .refused, message: "canvas is opening; wait for the transition to end") }
            switch exporter.prepareSubmitDirectory(configured: handler.engine.config.exportDirectory) {
            case .failure(let error): return error
            case .success(let folder):
                let path = Exporter.submitPath(directory: folder, at: time(nil)) { [exporter] in access($0, F_OK) == 0 || exporter!.isWriting($0) }
                target = Exporter.target(path: path, width: size.width, height: size.height)
            }
        }
        switch target {
        case .failure(let error): return error
        case .success(let target):
            if case .submit = request { log("submit: writing the drawing to \(target.path)") }
            return exporter.start(target, canvas: handler.engine.canvas, submit: request == .submit, waiter: waiter, now: monotonicMicroseconds())
        }
    }

    /// Answers the exports that ended; a submit's written picture ends the drawing.
    func finishExports(_ finished: [(job: Exporter.Job, outcome: Result<ExportResult, ProtocolError>)]) {
        for (job, var outcome) in finished {
            // A stroke drawn (or taken back) while the picture was written would be cleared
            // without being in it: the picture is written again, to the same file, first.
            let canvas = handler.engine.canvas
            if case .success = outcome, job.submit, canvas.strokes.count != job.strokeCount || canvas.pointCount != job.pointCount {
                log("submit: the drawing changed while \(job.target.path) was written; writing it again")
                guard let error = exporter.start(job.target, canvas: canvas, submit: true, waiter: job.waiter, now: monotonicMicroseconds()) else { continue }
                outcome = .failure(error)
            }
            // A failure is in the log already (the exporter's), and in the answer.
            if case .success = outcome, job.submit {
                handler.submitted(path: job.target.path, source: job.waiter.source, now: monotonicMicroseconds())
                publish()
            }
            guard let client = job.waiter.client else { continue }
            client.awaitsDeferredAnswer = false
            switch outcome {
            case .success(let result): client.send(Response.success(id: job.waiter.id, result), kind: .response)
            case .failure(let error): client.send(Response.failure(id: job.waiter.id, error), kind: .response)
            }
        }
    }
}
