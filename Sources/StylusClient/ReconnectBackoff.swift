// SPDX-License-Identifier: MIT
/// How long a subscription waits before each reconnection attempt: 100 ms,
/// then twice as long each time, at most 5 s; back to 100 ms once connected.
public struct ReconnectBackoff: Equatable, Sendable {
    public var initialMilliseconds: Int
    public var maximumMilliseconds: Int
    /// Failed attempts since the last successful connection.
    public private(set) var attempts = 0

    public init(initialMilliseconds: Int = 100, maximumMilliseconds: Int = 5000) {
        self.initialMilliseconds = max(1, initialMilliseconds)
        self.maximumMilliseconds = max(self.initialMilliseconds, maximumMilliseconds)
    }

    /// The delay before the next attempt; each call doubles the next one, up to the cap.
    public mutating func nextDelayMilliseconds() -> Int {
        // Doubling stops at the cap, so a long outage never overflows.
        var delay = initialMilliseconds
        for _ in 0..<min(attempts, 32) where delay < maximumMilliseconds { delay *= 2 }
        attempts += 1
        return min(delay, maximumMilliseconds)
    }

    /// A connection succeeded: the next outage starts again at the first delay.
    public mutating func reset() { attempts = 0 }
}
