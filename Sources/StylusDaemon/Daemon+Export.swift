// SPDX-License-Identifier: MIT
import FoundationEssentials
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
        case .submit(let options):
            // Refused before anything is written, as a command and as a bound action alike:
            // a drawing cannot end while the canvas opens.
            let canvas = handler.engine.canvas
            if canvas.state == .opening { return ProtocolError(code: .refused, message: "canvas is opening; wait for the transition to end") }
            // As discard: an empty canvas is nothing to keep (a board alone is a picture someone chose).
            if !canvas.hasContent, canvas.background == .none {
                return ProtocolError(code: .refused, message: "nothing to submit: the canvas has no ink (and no board)")
            }
            switch exporter.prepareSubmitDirectory(configured: handler.engine.config.exportDirectory) {
            case .failure(let error): return error
            case .success(let folder):
                // Inline: a hidden file in the same folder, read back into the answer and removed.
                let path = Exporter.submitPath(directory: folder, at: time(nil), prefix: options.inline ? ".stylusd-inline" : "stylusd") { [exporter] in
                    access($0, F_OK) == 0 || exporter!.isWriting($0)
                }
                let configured = handler.engine.config.submitScene.flatMap(SubmitScene.init(rawValue:))
                if (options.scene ?? configured ?? .ink) == .screen {
                    return startShare(.snapshot, path: path, monitor: nil, client: waiter.client, id: waiter.id,
                                      submit: (options, waiter.source))
                }
                target = Exporter.target(path: path, width: size.width, height: size.height)
            }
        }
        switch target {
        case .failure(let error): return error
        case .success(let target):
            var submit: SubmitOptions?
            if case .submit(let options) = request { submit = options }
            // Said once the renderer is known to be there: a missing one fails the request first.
            if let error = exporter.start(target, canvas: handler.engine.canvas, submit: submit != nil, inline: submit?.inline ?? false,
                                          waiter: waiter, now: monotonicMicroseconds()) {
                return error
            }
            if let submit { log("submit: writing the drawing \(submit.inline ? "inline, through" : "to") \(target.path)") }
            return nil
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
                guard let error = exporter.start(job.target, canvas: canvas, submit: true, inline: job.inline, waiter: job.waiter, now: monotonicMicroseconds()) else { continue }
                outcome = .failure(error)
            }
            var inline: String?
            if job.inline, case .success = outcome {
                switch Self.takeInline(job.target.path) {
                case .success(let base64): inline = base64
                case .failure(let error): outcome = .failure(error)
                }
            }
            // A failure is in the log already (the exporter's), and in the answer.
            if case .success = outcome, job.submit {
                handler.submitted(path: job.target.path, source: job.waiter.source, now: monotonicMicroseconds(), pngBase64: inline)
                publish()
            }
            if case .success(var result) = outcome, let inline {
                result.pngBase64 = inline
                outcome = .success(result)
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

extension Daemon {
    /// An inline submit's PNG, read from the file it came through (removed) as base64; over
    /// the limit, refused with the path form suggested (the drawing is not ended).
    static func takeInline(_ path: String) -> Result<String, ProtocolError> {
        defer { unlink(path) }
        let limit = SubmitOptions.inlineLimitBytes
        let bytes: [UInt8]
        do {
            bytes = try readFile(path, limit: limit)
        } catch where error.errno == .fileTooLarge {
            return .failure(ProtocolError(code: .refused, message: "the picture is more than \(limit / (1 << 20)) MiB, more than an inline submit carries; submit without \"inline\" to get its path"))
        } catch {
            return .failure(ProtocolError(code: .failed, message: "cannot read back the inline picture \(path): \(error)"))
        }
        return .success(Data(bytes).base64EncodedString())
    }
}
