// SPDX-License-Identifier: MIT
import StylusProtocol
import StylusSystem

/// A client's unread bytes, cut into request lines. Kept apart from the
/// socket so the same code can be fuzzed and tested without one.
package struct InboundLines {
    private var pending = LineBuffer(limit: ProtocolV1.maxLineBytes)

    package init() {}

    /// Bytes waiting for their newline.
    package var pendingCount: Int { pending.count }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        pending.append(bytes)
    }

    /// The complete lines so far, without newline or a trailing CR; empty
    /// lines are skipped. Nil when a line (complete or not) is over the limit:
    /// the client is then disconnected, so what stays buffered does not matter.
    package mutating func takeLines(limit: Int = ProtocolV1.maxLineBytes) -> [[UInt8]]? {
        pending.limit = limit
        var lines: [[UInt8]] = []
        do {
            while var line = try pending.nextLine() {
                if line.last == 0x0d { line.removeLast() }
                if !line.isEmpty { lines.append(line) }
            }
        } catch {
            return nil
        }
        return lines
    }
}
