// SPDX-License-Identifier: MIT
import StylusCore

/// Today's behaviour: the desktop reads the pen directly, so stylusd writes
/// nothing. A double press still reaches applications as two presses, and
/// precision mode moves only the position socket clients see.
public final class ObserveOutput: PenOutput {
    public let mode = OutputMode.observe
    public let statusReason: String

    /// - Parameter filterUnavailable: why filter mode was not chosen, with
    ///   its fix, when it was wanted; nil when observe was asked for.
    public init(filterUnavailable: String? = nil) {
        var reason = "observe: the desktop reads the pen directly; stylusd withholds nothing"
            + " and precision does not move the cursor"
        if let filterUnavailable { reason += "; filter is not possible: \(filterUnavailable)" }
        statusReason = reason
    }

    public func deviceAdded(_ device: OutputDevice) {}
    public func deviceRemoved(_ id: DeviceID) {}
    public func apply(_ effects: Effects) {}
    public func flush() {}
}
