// SPDX-License-Identifier: MIT
import StylusClient
import StylusCore
import StylusProtocol
import Synchronization

/// A canvas's mouse and touch strokes on their way to the daemon (`draw`), in
/// order, on one connection and one thread at a time, so that the window
/// never waits for the daemon. Moves that pile up while a request is out go
/// as one (a request carries up to `DrawRequest.maxPoints` points).
final class PointerStream: Sendable {
    private struct State {
        var queue: [DrawRequest] = []
        var sending = false
    }
    /// Only the thread that drains (`sending`, one at a time) touches it.
    private nonisolated(unsafe) var connection: StylusConnection?
    private let path: String
    private let state = Mutex(State())
    private let onRefusal: @Sendable (String) -> Void

    /// `onRefusal` runs on the stream's thread with what the daemon said.
    init(path: String, onRefusal: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.onRefusal = onRefusal
    }

    func send(_ request: DrawRequest) {
        let start = state.withLock { s -> Bool in
            if request.phase == .move, var last = s.queue.last, last.phase == .move, last.source == request.source,
               last.points.count + request.points.count <= DrawRequest.maxPoints {
                last.points += request.points
                s.queue[s.queue.count - 1] = last
            } else {
                s.queue.append(request)
            }
            guard !s.sending else { return false }
            s.sending = true
            return true
        }
        if start { DaemonLink.detached { self.drain() } }
    }

    /// `status`'s canvas part on the stream's connection: whether the daemon says the pointer draws.
    func pointerSetting(_ done: @escaping @Sendable (CanvasPointer?) -> Void) {
        let path = path
        DaemonLink.detached {
            let status = try? StylusConnection(path: path).status()
            done(status?.canvas.pointer.flatMap(CanvasPointer.init(rawValue:)))
        }
    }

    private func drain() {
        while let request = state.withLock({ s -> DrawRequest? in
            guard !s.queue.isEmpty else {
                s.sending = false
                return nil
            }
            return s.queue.removeFirst()
        }) {
            // Once again on a fresh connection: the daemon may have restarted since.
            for attempt in 0..<2 {
                do throws(StylusClientError) {
                    if connection == nil { connection = try StylusConnection(path: path) }
                    _ = try connection!.request(.draw(request), as: DrawResult.self)
                    break
                } catch {
                    // Refused (the canvas minimized under the stroke, say): another try says the same.
                    if case .commandFailed = error.kind {
                        onRefusal(error.message)
                        break
                    }
                    connection = nil
                    if attempt == 1 { onRefusal(error.message) }
                }
            }
        }
    }
}
