// SPDX-License-Identifier: MIT

/// A line longer than its reader allows. Past the limit the reader cannot
/// tell where the next line starts, so the stream is lost.
public struct LineTooLong: Error, Equatable, Sendable, CustomStringConvertible {
    /// The most bytes a line may have, its newline not counted.
    public let limit: Int

    public init(limit: Int) { self.limit = limit }

    public var description: String { "a line over \(limit) bytes" }
}

/// Bytes read from a socket or pipe and not yet taken, cut into lines
/// (newline-terminated) or taken by count. The one line splitter for every
/// stream stylusd and its tools read, so all of them bound a line the same way.
public struct LineBuffer {
    /// The most bytes a line may have, its newline not counted.
    public var limit: Int
    private var storage: [UInt8] = []
    /// Where the unread bytes begin: taking a line only moves this, and the
    /// taken bytes go at the next append, so a batch of short lines is not
    /// one memmove each.
    private var start = 0
    /// Unread bytes before this are known to hold no newline, so a long line
    /// arriving in many reads is scanned once, not once per read.
    private var scanned = 0

    public init(limit: Int) { self.limit = limit }

    /// Bytes not yet taken.
    public var count: Int { storage.count - start }
    public var isEmpty: Bool { start == storage.count }
    /// The bytes not yet taken, lines and all.
    public var unread: ArraySlice<UInt8> { storage[start...] }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        storage.append(contentsOf: bytes)
    }

    public mutating func append(contentsOf bytes: some Collection<UInt8>) {
        compact()
        storage.append(contentsOf: bytes)
    }

    /// The next complete line without its newline (a CR before it is kept);
    /// nil while none is complete. Throws when the line, complete or not yet,
    /// has more than `limit` bytes.
    public mutating func nextLine() throws(LineTooLong) -> [UInt8]? {
        guard let newline = storage[(start + scanned)...].firstIndex(of: 0x0a) else {
            scanned = count
            if count > limit { throw LineTooLong(limit: limit) }
            return nil
        }
        if newline - start > limit { throw LineTooLong(limit: limit) }
        defer { skip(newline + 1 - start) }
        return Array(storage[start..<newline])
    }

    /// Exactly `count` bytes off the front; nil (taking nothing) while fewer are here.
    public mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, self.count >= count else { return nil }
        defer { skip(count) }
        return Array(storage[start..<(start + count)])
    }

    /// Drops up to `count` bytes off the front.
    public mutating func skip(_ count: Int) {
        let taken = min(max(count, 0), self.count)
        start += taken
        scanned = max(0, scanned - taken)
    }

    private mutating func compact() {
        guard start > 0 else { return }
        storage.removeSubrange(0..<start)
        start = 0
    }
}
