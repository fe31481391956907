// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// `snapshot` and `copy`: the canvas process sees the screen and holds the
/// clipboard, the daemon neither; so the request goes to it as a `share` event
/// on the `canvas` topic, and the client is answered when the canvas sends `shared`.
extension Daemon {
    /// Passes the request on; nil once sent (the answer waits for the canvas), else why not.
    func startShare(_ kind: ShareKind, path: String?, monitor: String?, client: ClientConnection?, id: JSONValue,
                    submit: (options: SubmitOptions, source: ChangeSource)? = nil) -> ProtocolError? {
        let canvas = handler.engine.canvas
        if kind != .copyDrawing, canvas.state != .open {
            return ProtocolError(code: .refused, message: "canvas is \(canvas.state.rawValue): a snapshot is of the open canvas over the screen; open it first")
        }
        let followers = canvasFollowers(besides: client)
        guard !followers.isEmpty else {
            return ProtocolError(code: .failed, message: "no canvas follows stylusd (stylus-canvas, or the GNOME extension): nothing can \(kind == .snapshot ? "see the screen" : "hold the clipboard")")
        }
        var file = path
        if kind == .snapshot {
            if file == nil {
                switch exporter.prepareSubmitDirectory(configured: handler.engine.config.exportDirectory) {
                case .failure(let error): return error
                case .success(let folder):
                    file = Exporter.submitPath(directory: folder, at: time(nil), prefix: "stylusd-snapshot") { access($0, F_OK) == 0 }
                }
            }
            // The folder checked here, as `export` checks it: the canvas's own error would come later and say less.
            if case .failure(let error) = Exporter.target(path: file!, width: 1, height: 1) { return error }
        }
        let number = shares.add(ShareDesk.Pending(client: client, id: id, kind: kind, path: file,
                                                  deadline: monotonicMicroseconds() + ShareDesk.timeout, submit: submit))
        let size = handler.defaultExportSize
        var line = JSONWriter(lineInto: [])
        line.string("event", "share")
        line.int("request", number)
        line.string("what", kind.rawValue)
        if let file { line.string("path", file) }
        if let monitor { line.string("monitor", monitor) }
        // A copied drawing is the picture `export` writes: its size and board.
        line.int("width", size.width)
        line.int("height", size.height)
        line.string("background", canvas.background.name)
        let bytes = line.finishLine()
        for follower in followers { follower.send(bytes, kind: .state) }
        return nil
    }

    /// The connections the request goes to: the reporting canvas's own (its process's, or the
    /// connection it reported on), so that a `stylusctl watch` beside it is not waited for; any
    /// follower of the `canvas` topic when no canvas has reported (an older one, a client of its own).
    private func canvasFollowers(besides asker: ClientConnection?) -> [ClientConnection] {
        let all = clients.filter { $0 !== asker && $0.topics.contains(.canvas) && $0.closeReason == nil }
        guard let overlay = handler.overlay, handler.runningOverlay != nil else { return all }
        let canvas = all.filter { client in
            overlay.connection.map { $0 == client.number } ?? (overlay.pid != nil && client.peerPID == overlay.pid)
        }
        return canvas.isEmpty ? all : canvas
    }

    /// The canvas's `shared`: answers the client that asked; the canvas gets the status.
    func finishShare(_ reply: ShareReply, id: JSONValue) -> [UInt8] {
        guard let pending = shares.take(reply.request) else {
            return Response.failure(id: id, ProtocolError(code: .refused, message: "no share request \(reply.request) is waiting: answered already, or its \(ShareDesk.timeout / 1_000_000) s ran out"))
        }
        let answer: [UInt8]
        if let submit = pending.submit {
            answer = submitted(reply, pending: pending, submit.options, source: submit.source)
        } else if let error = reply.error {
            log("\(pending.kind.rawValue) failed: \(error)")
            answer = Response.failure(id: pending.id, ProtocolError(code: .failed, message: error))
        } else {
            let result = ShareResult(path: pending.kind == .snapshot ? (reply.path ?? pending.path) : nil, width: reply.width ?? 0, height: reply.height ?? 0,
                                     scene: reply.scene ?? "screen", copied: pending.kind != .snapshot, note: reply.note)
            if let path = result.path { log("snapshot: \(path), \(result.width)×\(result.height), \(result.scene)") }
            answer = Response.success(id: pending.id, result)
        }
        if let client = pending.client {
            client.awaitsDeferredAnswer = false
            client.send(answer, kind: .response)
        }
        return handler.status(id)
    }

    /// Answers the requests the canvas left unanswered past their time.
    func timeOutShares(now: Int64) {
        for pending in shares.timeOut(now: now) {
            let what = pending.kind == .snapshot ? "the snapshot" : "the copy"
            let error = ProtocolError(code: .failed, message: "the canvas did not answer \(what) within \(ShareDesk.timeout / 1_000_000) s (a stylus-canvas or GNOME extension from before snapshots, or one that is stuck)")
            log("\(pending.kind.rawValue) failed: \(error.message)")
            guard let client = pending.client else { continue }
            client.awaitsDeferredAnswer = false
            client.send(Response.failure(id: pending.id, error), kind: .response)
        }
    }

    /// A `submit` of the screen: the snapshot written ends the drawing, as the exporter's file does.
    private func submitted(_ reply: ShareReply, pending: ShareDesk.Pending, _ options: SubmitOptions, source: ChangeSource) -> [UInt8] {
        let path = reply.path ?? pending.path ?? ""
        if let error = reply.error {
            log("submit failed, the drawing is unchanged: \(error)")
            if options.inline { unlink(path) }
            return Response.failure(id: pending.id, ProtocolError(code: .failed, message: error))
        }
        var inline: String?
        if options.inline {
            switch Self.takeInline(path) {
            case .success(let base64): inline = base64
            case .failure(let error): return Response.failure(id: pending.id, error)
            }
        }
        let canvas = handler.engine.canvas
        var result = ExportResult(path: path, format: "png", width: reply.width ?? 0, height: reply.height ?? 0,
                                  strokeCount: canvas.strokes.count, hasContent: canvas.hasContent)
        result.pngBase64 = inline
        log("submit: the screen with the drawing \(inline == nil ? "in \(path)" : "inline")")
        handler.submitted(path: path, source: source, now: monotonicMicroseconds(), pngBase64: inline)
        publish()
        return Response.success(id: pending.id, result)
    }
}
