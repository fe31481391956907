// SPDX-License-Identifier: MIT
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// Sends what the engine produced to the clients subscribed to it, and
/// echoes events on standard output when asked to.
struct Fanout {
    typealias Printing = DaemonOptions.EventPrinting

    let printing: Printing
    private var stdoutBuffer: [UInt8] = []
    private var lineBuffer: [UInt8] = []

    init(printing: Printing) {
        self.printing = printing
        stdoutBuffer.reserveCapacity(4096)
        lineBuffer.reserveCapacity(512)
    }

    /// Sends `effects` out and empties them; returns whether state to save changed.
    mutating func publish(_ effects: inout Effects, to clients: [ClientConnection]) -> Bool {
        for event in effects.events {
            lineBuffer.removeAll(keepingCapacity: true)
            lineBuffer = event.jsonLine(into: lineBuffer)
            let topic = Topic(event)
            for client in clients where client.topics.contains(topic) {
                client.send(lineBuffer, kind: .state)
            }
            switch printing {
            case .none: break
            case .json: stdoutBuffer += lineBuffer
            case .text:
                stdoutBuffer += Array(event.text.utf8)
                stdoutBuffer.append(0x0a)
            }
        }
        for sample in effects.samples {
            lineBuffer.removeAll(keepingCapacity: true)
            lineBuffer = sample.jsonLine(into: lineBuffer)
            for client in clients where client.topics.contains(.pen) {
                client.send(lineBuffer, kind: .pen)
            }
        }
        let changed = effects.stateChanged
        effects.removeAll()
        return changed
    }

    /// A pen the daemon could not open, for `device` subscribers.
    func deviceFailed(path: String, reason: String, to clients: [ClientConnection]) {
        var line = JSONWriter(lineInto: [])
        line.string("event", "device")
        line.string("change", "failed")
        line.string("node", path)
        line.string("reason", reason)
        let bytes = line.finishLine()
        for client in clients where client.topics.contains(.device) {
            client.send(bytes, kind: .state)
        }
    }

    mutating func flushStdout() {
        guard !stdoutBuffer.isEmpty else { return }
        writeAll(STDOUT_FILENO, stdoutBuffer)
        stdoutBuffer.removeAll(keepingCapacity: true)
    }
}
