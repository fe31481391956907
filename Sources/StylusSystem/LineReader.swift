// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Buffered reads from a descriptor: lines and exact byte counts.
public struct LineReader {
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    public init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; nil at EOF.
    public mutating func line() -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0a) {
                defer { start = newline + 1 }
                return Array(buffer[start..<newline])
            }
            guard fill() else { return nil }
        }
    }

    /// Nothing read and not yet taken.
    public var isEmpty: Bool { start == buffer.count }

    /// Exactly `count` bytes; nil if the input ends first.
    public mutating func bytes(_ count: Int) -> [UInt8]? {
        while buffer.count - start < count {
            guard fill() else { return nil }
        }
        defer { start += count }
        return Array(buffer[start..<(start + count)])
    }

    private mutating func fill() -> Bool {
        guard !ended else { return false }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = retryingInterrupts { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) } }
        guard n > 0 else { ended = true; return false }
        buffer += chunk[0..<n]
        return true
    }
}
