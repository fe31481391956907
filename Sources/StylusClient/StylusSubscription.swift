// SPDX-License-Identifier: MIT
public import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// What a subscription delivers.
public enum SubscriptionUpdate: Sendable {
    /// Subscribed; the daemon's state at that moment.
    case connected(StatusResult)
    /// An event of a subscribed topic, as the daemon sent it.
    case event(EventLine)
    /// The connection dropped (the daemon stopped or restarted); reconnecting.
    case disconnected(reason: String)
    /// Subscribed again after a drop; a fresh state, so no change is missed.
    case reconnected(StatusResult)
}

/// A subscription that survives daemon restarts: it connects, subscribes,
/// fetches `status`, delivers events, and after a drop reconnects with
/// `ReconnectBackoff`'s delays, subscribes again and fetches a fresh `status`.
/// It runs on its own thread; ending the iteration (or `cancel()`) stops it.
///
/// It ends with an error only when retrying cannot help: no socket path,
/// the daemon refuses this user, or it refuses the subscription.
public struct StylusSubscription: AsyncSequence, Sendable {
    public typealias Element = SubscriptionUpdate
    public let topics: [Topic]
    public let path: String
    public let backoff: ReconnectBackoff

    public init(topics: [Topic] = Topic.defaults, socket: String? = nil,
                environment: [String: String] = StylusConnection.socketEnvironment,
                backoff: ReconnectBackoff = ReconnectBackoff()) throws(StylusClientError) {
        self.init(topics: topics, path: try StylusConnection.resolvePath(socket: socket, environment: environment), backoff: backoff)
    }

    public init(topics: [Topic] = Topic.defaults, path: String, backoff: ReconnectBackoff = ReconnectBackoff()) {
        self.topics = topics
        self.path = path
        self.backoff = backoff
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<SubscriptionUpdate, any Error>.AsyncIterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionUpdate.self, throwing: (any Error).self)
        let handle = start { update in continuation.yield(update) } onEnd: { error in continuation.finish(throwing: error) }
        continuation.onTermination = { _ in handle.cancel() }
        return stream.makeAsyncIterator()
    }

    /// The callback form: `onUpdate` and then `onEnd` are called on the subscription's thread.
    @discardableResult
    public func start(_ onUpdate: @escaping @Sendable (SubscriptionUpdate) -> Void,
                      onEnd: @escaping @Sendable ((any Error)?) -> Void = { _ in }) -> SubscriptionHandle {
        let handle = SubscriptionHandle()
        let worker = SubscriptionWorker(topics: topics, path: path, backoff: backoff, handle: handle)
        startThread {
            let error = worker.run(onUpdate)
            handle.close()
            onEnd(error)
        }
        return handle
    }
}

/// Stops a subscription: the thread wakes from its read or its wait and ends.
public final class SubscriptionHandle: Sendable {
    private let cancelled = Locked(false)
    /// Rung once by `cancel` and never drained, so it stays readable for every later wait.
    private let doorbell = try? Doorbell()

    init() {}

    public func cancel() {
        guard !cancelled.withLock({ was in defer { was = true }; return was }) else { return }
        doorbell?.ring()
    }

    public var isCancelled: Bool { cancelled.withLock { $0 } }
    var wakeFD: Int32 { doorbell?.fd ?? -1 }

    /// Sleeps `milliseconds` unless cancelled first; returns false when cancelled.
    func wait(milliseconds: Int) -> Bool {
        var fd = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        let deadline = monotonicMicroseconds() + Int64(milliseconds) * 1000
        while !isCancelled {
            let left = deadline - monotonicMicroseconds()
            if left <= 0 { return true }
            _ = poll(&fd, 1, Int32((left + 999) / 1000))
        }
        return false
    }

    func close() {
        cancelled.withLock { $0 = true }
    }
}

/// The subscription's loop, on its own thread.
struct SubscriptionWorker: Sendable {
    var topics: [Topic]
    var path: String
    var backoff: ReconnectBackoff
    var handle: SubscriptionHandle

    /// Runs until cancelled (nil) or until an error retrying cannot cure.
    func run(_ deliver: @Sendable (SubscriptionUpdate) -> Void) -> (any Error)? {
        var backoff = self.backoff
        var connectedBefore = false
        var announcedDown = false
        while !handle.isCancelled {
            do throws(StylusClientError) {
                let connection = try StylusConnection(path: path)
                connection.wakeFD = handle.wakeFD
                _ = try connection.subscribe(topics)
                let status = try connection.status()
                deliver(connectedBefore ? .reconnected(status) : .connected(status))
                connectedBefore = true
                announcedDown = false
                backoff.reset()
                while let event = try connection.nextEvent() { deliver(.event(event)) }
                throw StylusClientError(.notRunning, "stylusd closed the connection (it stopped)")
            } catch {
                switch error.kind {
                case .cancelled: return nil
                case .connectionRefused, .commandFailed: return error
                case .notRunning, .protocolViolation:
                    if !announcedDown {
                        deliver(.disconnected(reason: error.message))
                        announcedDown = true
                    }
                }
            }
            if !handle.wait(milliseconds: backoff.nextDelayMilliseconds()) { return nil }
        }
        return nil
    }
}

/// Runs `body` on a new detached thread (the subscription blocks in read and poll, not in Swift's task pool).
func startThread(_ body: @escaping @Sendable () -> Void) {
    do {
        try startDetachedThread(body)
    } catch {
        body()   // no thread to be had: run here
    }
}
