// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Writes every byte to `fd`, retrying short writes and EINTR. Returns
/// false when the descriptor refuses (EPIPE, EAGAIN on a full
/// non-blocking socket, ...), with errno left as the call set it.
@discardableResult
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
}

@discardableResult
public func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
}

@discardableResult
public func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    var offset = 0
    while offset < buffer.count {
        let n = retryingInterrupts { write(fd, base + offset, buffer.count - offset) }
        if n < 0 { return false }
        offset += n
    }
    return true
}
