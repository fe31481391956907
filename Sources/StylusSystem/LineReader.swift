// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Blocking buffered reads from a descriptor: lines and exact byte counts.
public struct LineReader {
    public let fd: Int32
    private var buffer: LineBuffer
    private var ended = false

    /// `limit`: the most bytes a line may have, its newline not counted.
    public init(fd: Int32, limit: Int) {
        self.fd = fd
        buffer = LineBuffer(limit: limit)
    }

    /// The next line without its newline; nil at EOF. Throws for a line over the limit.
    public mutating func line() throws(LineTooLong) -> [UInt8]? {
        while true {
            if let line = try buffer.nextLine() { return line }
            guard fill() else { return nil }
        }
    }

    /// Nothing read and not yet taken.
    public var isEmpty: Bool { buffer.isEmpty }

    /// Exactly `count` bytes; nil if the input ends first.
    public mutating func bytes(_ count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        return buffer.take(count)
    }

    private mutating func fill() -> Bool {
        guard !ended else { return false }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = retryingInterrupts { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) } }
        guard n > 0 else { ended = true; return false }
        chunk.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        return true
    }
}
