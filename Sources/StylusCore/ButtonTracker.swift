// SPDX-License-Identifier: MIT
/// Per-button state of the double-press rule.
///
/// The rule, per device and per button:
/// 1. a press less than `debounce` after the same button's last release is
///    contact bounce: it is swallowed together with its release;
/// 2. a press at most `interval` after the pending first press is a double
///    press, reported at once, and clears the pending press;
/// 3. any other press becomes the pending first press;
/// 4. proximity-out or a different tool coming in clears pending presses;
/// 5. a press while the tip touches is a drag press: it neither pairs nor
///    becomes pending, and the tip touching down clears pending presses.
///    Within one frame the tip's change counts first (the frame's state at
///    SYN_REPORT decides), so a press in the frame that lifts the tip is an
///    ordinary press, and one in the frame that sets it down is a drag.
struct ButtonTracker: Equatable {
    var isDown = false
    /// The button is physically down but its press was bounce.
    var swallowingBounce = false
    var lastRelease: Microseconds?
    var pendingPress: Microseconds?
    /// The last press the rule accepted (not bounce), paired or not: the
    /// gap a `button` event reports is measured from it.
    var lastPress: Microseconds?
    /// While the second press of a double press is down: the first press it
    /// paired with, so that its release is known to belong to the double press.
    var pairedFirstPress: Microseconds?

    enum PressVerdict: Equatable {
        case bounce
        case repeated            // a press while already down: the kernel never sends this, a fuzzed file may
        case first
        case double(firstPress: Microseconds)
        case drag                // the tip touches: a button-drag, never part of a double press
    }

    mutating func press(at time: Microseconds, interval: Microseconds, debounce: Microseconds, tipDown: Bool = false) -> PressVerdict {
        if isDown || swallowingBounce { return .repeated }
        if let released = lastRelease, time - released < debounce {
            swallowingBounce = true
            return .bounce
        }
        isDown = true
        lastPress = time
        if tipDown {
            // Rule 5; the engine reported the pending press it ends.
            pendingPress = nil
            return .drag
        }
        if let first = pendingPress, time - first <= interval {
            pendingPress = nil
            pairedFirstPress = first
            return .double(firstPress: first)
        }
        pendingPress = time
        return .first
    }

    enum ReleaseVerdict: Equatable {
        case bounce              // the release of a swallowed press
        case unmatched           // no press is down
        case first
        case double(firstPress: Microseconds)
    }

    /// Only the release of a press the rule accepted starts the debounce time.
    @discardableResult
    mutating func release(at time: Microseconds) -> ReleaseVerdict {
        if swallowingBounce {
            swallowingBounce = false
            return .bounce
        }
        guard isDown else { return .unmatched }
        isDown = false
        lastRelease = time
        defer { pairedFirstPress = nil }
        return pairedFirstPress.map { .double(firstPress: $0) } ?? .first
    }
}
