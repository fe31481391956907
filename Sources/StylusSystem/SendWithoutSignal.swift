// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// send(2) with MSG_NOSIGNAL, so a peer gone away is an error (EPIPE) and
/// not SIGPIPE, retrying EINTR. Returns the count sent; nil when a
/// non-blocking socket has no room now (EAGAIN); -1, with errno as the
/// call left it, on any other failure.
public func sendWithoutSignal(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int? {
    let n = retryingInterrupts { send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
    if n >= 0 { return n }
    return errno == EAGAIN || errno == EWOULDBLOCK ? nil : -1
}
