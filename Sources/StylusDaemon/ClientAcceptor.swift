// SPDX-License-Identifier: MIT
import CLinux
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// Takes new connections from the listening socket: greets this user's,
/// refuses everyone else's, and refuses with a reason when out of descriptors.
final class ClientAcceptor {
    private var nextClientNumber = 1
    /// Held so that, out of file descriptors, a connection can still be
    /// accepted and told why before it is closed (else poll spins on it).
    private var spareFD: Int32 = open("/dev/null", O_RDONLY | O_CLOEXEC)
    private var descriptorsExhausted = false
    private let greeting: [UInt8]
    private let warn: (String) -> Void

    init(version: String, warn: @escaping (String) -> Void) {
        greeting = Response.line(HelloEvent(version: version, pid: getpid()))
        self.warn = warn
    }

    deinit { if spareFD >= 0 { close(spareFD) } }

    /// Every connection waiting on `listener`, greeted; `connected` counts those already served.
    func accept(from listener: Listener, connected: Int) -> [ClientConnection] {
        var accepted: [ClientConnection] = []
        while true {
            // accept4 hides behind _GNU_SOURCE in Glibc's module; accept + fcntl does the same.
            let fd = retryingInterrupts { Glibc.accept(listener.fd, nil, nil) }
            if fd < 0 {
                if errno == EMFILE || errno == ENFILE { refuseForLackOfDescriptors(listener, connected: connected + accepted.count) }
                return accepted
            }
            descriptorsExhausted = false
            let client = ClientConnection(fd: fd, number: nextClientNumber)
            nextClientNumber += 1
            do {
                try makeNonBlockingCloseOnExec(fd)
            } catch {
                warn("cannot serve a new connection: \(error)")
                continue
            }
            guard let uid = client.peerUID(), uid == getuid() else {
                let refusal = Refusal.otherUser(allowed: getuid(), peer: client.peerUID())
                _ = client.output.enqueue(refusal.line, kind: .notice)
                _ = client.flush()
                warn("refused a connection from \(Refusal.describe(client.peerUID()))")
                continue
            }
            _ = client.output.enqueue(greeting, kind: .notice)
            accepted.append(client)
        }
    }

    private func refuseForLackOfDescriptors(_ listener: Listener, connected: Int) {
        if !descriptorsExhausted {
            warn("out of file descriptors with \(connected) clients connected; refusing new connections until some close")
            descriptorsExhausted = true
        }
        if spareFD >= 0 { close(spareFD) }
        let fd = Glibc.accept(listener.fd, nil, nil)
        if fd >= 0 {
            let message = Refusal.tooManyConnections(connected).line
            _ = message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            close(fd)
        }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
}
