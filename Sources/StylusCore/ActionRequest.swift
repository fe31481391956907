// SPDX-License-Identifier: MIT
/// An action the engine leaves to the shell, with the double press that
/// asked for it. The shell performs it and, when it cannot, rewrites the
/// double-press event at `eventIndex` in the same `Effects` to say why
/// before the event is published.
public struct ActionRequest: Equatable, Sendable {
    public var action: Action
    public var device: DeviceID
    public var button: ButtonID
    public var time: Microseconds
    /// Index into `Effects.events` of the `.doublePress` event.
    public var eventIndex: Int

    public init(action: Action, device: DeviceID, button: ButtonID, time: Microseconds, eventIndex: Int) {
        self.action = action
        self.device = device
        self.button = button
        self.time = time
        self.eventIndex = eventIndex
    }
}
