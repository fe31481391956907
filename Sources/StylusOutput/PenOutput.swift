// SPDX-License-Identifier: MIT
import StylusCore

/// How pen input reaches the desktop.
public enum OutputMode: String, Sendable, CaseIterable {
    /// The desktop reads the real node; stylusd reads it alongside and
    /// changes nothing the desktop sees.
    case observe
    /// stylusd grabs the real node and writes what the desktop should see to
    /// a virtual pen (`UinputOutput`).
    case filter
}

/// A device as the shell knows it when it appears: more than the engine
/// needs, because an output may open, grab or clone the node.
public struct OutputDevice: Equatable, Sendable {
    public var id: DeviceID
    public var info: DeviceInfo
    /// The /dev/input node; nil for a recording.
    public var node: String?
    /// What the node says about itself, where the shell has read it.
    public var evdev: DeviceDescription?

    public init(id: DeviceID, info: DeviceInfo, node: String? = nil, evdev: DeviceDescription? = nil) {
        self.id = id
        self.info = info
        self.node = node
        self.evdev = evdev
    }
}

/// "Where input goes next": the seam between the engine's decisions and the
/// desktop. The shell owns one output and drives it from its loop, one
/// implementation per file:
///
/// - `deviceAdded` / `deviceRemoved` as the input source reports devices;
/// - `apply` after every engine call (`handle`, `perform`, `fireTimers`),
///   with the effects it produced, before the shell clears them;
/// - `flush` once at the end of each loop turn;
/// - `close` on exit, or before another output takes over.
///
/// An output never changes the engine's state; everything it decides from
/// comes in `Effects.output`, so a replay hands it the same calls as live input.
public protocol PenOutput: AnyObject {
    var mode: OutputMode { get }
    /// One line for `status` and the start-up log: which mode runs, why, and
    /// the fix where a better mode is not possible.
    var statusReason: String { get }
    /// A descriptor for the loop's poll set, read with `descriptorReady`;
    /// nil when the output has nothing to read (uinput has nothing).
    var pollDescriptor: Int32? { get }
    /// The nodes a filter has not grabbed yet because the pen is in
    /// proximity or a button is held (`status`'s `output.waiting`).
    var waitingToGrab: [String] { get }
    /// While the canvas is open, the pen reaches the desktop only through
    /// this output (status's `output.captures_pen`): a canvas window then
    /// needs no pointer input of its own.
    var capturesPen: Bool { get }

    func deviceAdded(_ device: OutputDevice)
    func deviceRemoved(_ id: DeviceID)
    /// Called on every pen event: must not allocate for a motion frame.
    func apply(_ effects: Effects)
    func flush()
    /// `pollDescriptor` is readable. A filter reads its grabbed nodes here:
    /// each input goes to `handle`, which runs the engine and calls `apply`
    /// with its effects before returning, so the node's frame can be written
    /// as the engine decided; `frameWritten` follows each frame's write, for
    /// what can wait until the desktop has the frame (the socket's clients).
    func descriptorReady(_ handle: (TimedPenInput) -> Void, frameWritten: () -> Void)
    /// Called at the start of every turn of the loop (a filter's watchdog
    /// heartbeat); must be cheap.
    func loopTurned()
    /// Takes new settings after a reload or a preset switch, keeping its
    /// grabs and clones; an output with no settings of its own ignores them.
    func reconfigure(engine: EngineConfig, filter: FilterConfig)
    /// Gives back everything the output holds (grabs, virtual devices).
    func close()
}

extension PenOutput {
    public var pollDescriptor: Int32? { nil }
    public var waitingToGrab: [String] { [] }
    public var capturesPen: Bool { false }
    public func descriptorReady(_ handle: (TimedPenInput) -> Void, frameWritten: () -> Void) {}
    public func loopTurned() {}
    public func reconfigure(engine: EngineConfig, filter: FilterConfig) {}
    public func close() {}
}
