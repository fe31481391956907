// SPDX-License-Identifier: MIT
import StylusSystem
import StylusProtocol
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// One connected client: its unread bytes, its bounded output, its topics.
final class ClientConnection {
    let fd: Int32
    let number: Int
    var topics: Set<Topic> = []
    var output = OutboundQueue()
    /// Set when the client must go once its output is written (or at once if it cannot be).
    var closeReason: CloseReason?
    /// A request of this client's is answered by a helper process (reload,
    /// a first probe); its later lines wait, so answers keep their order.
    var awaitsDeferredAnswer = false
    private var input = InboundLines()
    /// Lines read but not yet answered: a client stops being answered (and
    /// read) while this much of its output is unsent, so one that sends
    /// requests and never reads the answers holds a bounded amount of memory.
    static let answerPauseBytes = 256 * 1024
    private var unanswered: [[UInt8]] = []
    private var nextUnanswered = 0
    /// The peer shut down its sending side; it goes once everything is answered.
    var peerClosed = false

    /// Answers per client per loop turn.
    static let answersPerTurn = 16

    var hasUnansweredLines: Bool { nextUnanswered < unanswered.count }
    /// Lines wait and the output has room for their answers.
    var canAnswerNow: Bool { hasUnansweredLines && !awaitsDeferredAnswer && closeReason == nil && output.queuedBytes <= Self.answerPauseBytes }
    /// Whether to poll for its input: not while earlier lines wait for an answer.
    var wantsInput: Bool { !hasUnansweredLines && !awaitsDeferredAnswer && !peerClosed && closeReason == nil && output.queuedBytes <= Self.answerPauseBytes }

    func keepUnanswered(_ lines: [[UInt8]]) {
        if !hasUnansweredLines {
            unanswered.removeAll(keepingCapacity: true)
            nextUnanswered = 0
        }
        unanswered += lines
    }

    /// The next line to answer, unless its output is over the pause mark.
    func nextLineToAnswer() -> [UInt8]? {
        guard hasUnansweredLines, !awaitsDeferredAnswer, output.queuedBytes <= Self.answerPauseBytes else { return nil }
        defer { nextUnanswered += 1 }
        return unanswered[nextUnanswered]
    }

    init(fd: Int32, number: Int) {
        self.fd = fd
        self.number = number
    }

    deinit { close(fd) }

    enum ReadResult {
        case lines([[UInt8]])
        /// The peer closed its side; these are its last complete lines.
        case closed([[UInt8]])
        case tooLong
        case failed(Int32)
    }

    func readLines() -> ReadResult {
        // Not zeroed: a flood of small requests spent a few per cent of the daemon's time in memset.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
        defer { chunk.deallocate() }
        var closed = false
        while true {
            let n = retryingInterrupts { read(fd, chunk.baseAddress!, chunk.count) }
            if n > 0 {
                input.append(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
                if input.pendingCount > 4 * ProtocolV1.maxLineBytes { break }   // let takeLines decide
                continue
            }
            if n == 0 { closed = true; break }
            if errno == EAGAIN || errno == EWOULDBLOCK { break }
            return .failed(errno)
        }
        guard let lines = input.takeLines() else { return .tooLong }
        return closed ? .closed(lines) : .lines(lines)
    }

    /// Reads what the client sent and keeps its lines to be answered in
    /// the loop's round-robin pass; a line too long or a failed read marks it to go.
    func receive() {
        guard wantsInput else { return }
        switch readLines() {
        case .lines(let lines):
            keepUnanswered(lines)
        case .closed(let lines):
            keepUnanswered(lines)
            peerClosed = true
        case .tooLong:
            _ = output.enqueue(Response.failure(id: .null, ProtocolError(
                code: .lineTooLong, message: "a line may be at most \(ProtocolV1.maxLineBytes) bytes; disconnecting")), kind: .response)
            closeReason = .sentTooLongLine
        case .failed(let code):
            closeReason = .readFailed(code)
        }
    }

    /// Queues bytes for the client; one that cannot take them any more is marked to go.
    func send(_ bytes: [UInt8], kind: OutboundQueue.Kind) {
        guard closeReason == nil else { return }
        if case .overflow(let reason) = output.enqueue(bytes, kind: kind) { closeReason = .fellBehind(reason) }
    }

    /// Writes what the socket takes now. False when the client is gone.
    func flush() -> Bool {
        output.flush { buffer in sendWithoutSignal(fd, buffer) }
    }

    /// The peer's uid, from the kernel (SO_PEERCRED), not from anything the client says.
    func peerUID() -> uid_t? { peerCredentials()?.uid }

    /// The peer's process, from the kernel (SO_PEERCRED), asked once: an overlay's report lives as long as it does.
    private(set) lazy var peerPID: pid_t? = peerCredentials().flatMap { $0.pid > 0 ? $0.pid : nil }

    private func peerCredentials() -> PeerCredentials? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials
    }
}

/// Why a client goes: logged (all but a peer's own close), never compared as text.
enum CloseReason: Equatable, CustomStringConvertible {
    case closedItsSide
    case writeFailed
    case readFailed(Int32)
    case sentTooLongLine
    /// It does not read what it is sent; the queue says how far behind it is.
    case fellBehind(String)

    var description: String {
        switch self {
        case .closedItsSide: "closed its side"
        case .writeFailed: "write failed"
        case .readFailed(let code): "read failed: \(String(cString: strerror(code)))"
        case .sentTooLongLine: "sent a line over \(ProtocolV1.maxLineBytes) bytes"
        case .fellBehind(let reason): reason
        }
    }
}

/// struct ucred (pid, uid, gid), which Glibc's module hides behind _GNU_SOURCE.
private struct PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}
