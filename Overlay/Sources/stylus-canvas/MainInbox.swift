// SPDX-License-Identifier: MIT
import CGlib
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Work handed to the main thread (GLib's main loop) from other threads, run in order from one idle
/// source per batch (pen samples arrive a few hundred a second).
final class MainInbox: Sendable {
    private struct State {
        var pending: [@Sendable @MainActor () -> Void] = []
        var scheduled = false
    }
    private let state = Mutex(State())

    static let shared = MainInbox()

    func post(_ work: @escaping @Sendable @MainActor () -> Void) {
        let schedule = state.withLock { s -> Bool in
            s.pending.append(work)
            defer { s.scheduled = true }
            return !s.scheduled
        }
        guard schedule else { return }
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let inbox = Unmanaged<MainInbox>.fromOpaque(data!).takeUnretainedValue()
            let batch = inbox.state.withLock { s in
                defer { s.pending.removeAll(); s.scheduled = false }
                return s.pending
            }
            MainActor.assumeIsolated { for work in batch { work() } }
            return 0   // G_SOURCE_REMOVE
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }
}

/// Runs `body` once after `milliseconds` on the main thread.
@MainActor
func after(milliseconds: UInt32, _ body: @escaping @MainActor () -> Void) {
    final class Box { let body: @MainActor () -> Void; init(_ b: @escaping @MainActor () -> Void) { body = b } }
    g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
        let box = Unmanaged<Box>.fromOpaque(data!).takeRetainedValue()
        MainActor.assumeIsolated { box.body() }
        return 0
    }, Unmanaged.passRetained(Box(body)).toOpaque(), nil)
}

/// One line on standard error, unbuffered (a log line must not wait in a buffer).
func printError(_ line: String) {
    var bytes = Array(line.utf8)
    if bytes.last != 0x0a { bytes.append(0x0a) }
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
