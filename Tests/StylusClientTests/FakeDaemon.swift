// SPDX-License-Identifier: MIT
import StylusProtocol
@testable import StylusClient
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in daemon on a Unix socket in a temporary folder, served by a
/// thread of this process: it greets, answers `subscribe` and `status`
/// (with the canvas state it is given), and can push events and go away.
final class FakeDaemon: Sendable {
    let path: String
    let canvasState: String
    private struct State {
        var listener: Int32 = -1
        var client: Int32 = -1
        var requests: [String] = []
        var firstAccepted: ContinuousClock.Instant?
    }
    private let state = Locked(State())

    init(path: String, canvasState: String) throws {
        self.path = path
        self.canvasState = canvasState
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let address = try UnixSocketAddress(path: path)
        unlink(path)
        guard fd >= 0, address.withSockaddr({ bind(fd, $0, $1) }) == 0, listen(fd, 8) == 0 else {
            throw SystemCallError.last("bind", path)
        }
        state.withLock { $0.listener = fd }
        startThread { [self] in serve(fd) }
    }

    static func status(_ canvas: String) -> StatusResult {
        StatusResult(canvas: .init(state: canvas, hasContent: false, strokeCount: 0, pointCount: 0, full: false),
                     precision: .init(enabled: false, active: false),
                     input: .init(mode: "button-only", reason: "fake", devices: []),
                     config: .init(intervalMS: 500, debounceMS: 25, transitionMS: 250))
    }

    var requests: [String] { state.withLock { $0.requests } }
    /// When the first client connected.
    var firstAccepted: ContinuousClock.Instant? { state.withLock { $0.firstAccepted } }

    private func serve(_ listener: Int32) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                // Shut down by stop(). The listener is closed here, by the
                // only thread that uses it: closed in stop(), its number could
                // be reused by a socket another test opens meanwhile, and this
                // loop would then accept that test's connections.
                close(listener)
                return
            }
            let now = ContinuousClock.now
            state.withLock { $0.client = client; $0.firstAccepted = $0.firstAccepted ?? now }
            _ = writeAll(client, Response.line(HelloEvent(pid: getpid())))
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            reading: while true {
                let n = chunk.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                buffer += chunk[0..<n]
                while let newline = buffer.firstIndex(of: 0x0a) {
                    let line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    guard case .success(let request) = Request.decode(line) else { break reading }
                    state.withLock { $0.requests.append(request.command.name.rawValue) }
                    switch request.command {
                    case .subscribe(let topics): _ = writeAll(client, Response.success(id: request.id, TopicsResult(topics: topics.map(\.rawValue))))
                    case .status: _ = writeAll(client, Response.success(id: request.id, Self.status(canvasState)))
                    default: _ = writeAll(client, Response.failure(id: request.id, ProtocolError(code: .refused, message: "fake")))
                    }
                }
            }
            state.withLock { $0.client = -1 }
            close(client)
        }
    }

    /// Sends an event line to the connected client.
    func push(_ line: String) {
        state.withLock { s in if s.client >= 0 { _ = writeAll(s.client, Array((line + "\n").utf8)) } }
    }

    /// The daemon stops: the socket file goes, the client's connection drops.
    func stop() {
        state.withLock { s in
            unlink(path)
            shutdown(s.listener, Int32(SHUT_RDWR))   // wakes accept; the serving thread closes it
            s.listener = -1
            if s.client >= 0 { shutdown(s.client, Int32(SHUT_RDWR)) }
        }
    }
}

/// A fresh private folder for a socket.
func temporaryDirectory() -> String {
    var template = Array("/tmp/stylusclient-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}
