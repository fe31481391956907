// SPDX-License-Identifier: MIT
import StylusProtocol
/// A client's unread bytes, cut into request lines. Kept apart from the
/// socket so the same code can be fuzzed and tested without one.
package struct InboundLines {
    private var pending: [UInt8] = []

    package init() {}

    /// Bytes waiting for their newline.
    package var pendingCount: Int { pending.count }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        pending.append(contentsOf: bytes)
    }

    /// The complete lines so far, without newline or a trailing CR; empty
    /// lines are skipped. Nil when a line (complete or not) is over the limit:
    /// the client is then disconnected, so what stays buffered does not matter.
    package mutating func takeLines(limit: Int = ProtocolV1.maxLineBytes) -> [[UInt8]]? {
        var lines: [[UInt8]] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0a) {
            if newline - start > limit { return nil }
            var end = newline
            if end > start, pending[end - 1] == 0x0d { end -= 1 }
            if end > start { lines.append(Array(pending[start..<end])) }
            start = newline + 1
        }
        pending.removeSubrange(0..<start)
        return pending.count > limit ? nil : lines
    }
}
