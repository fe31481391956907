// SPDX-License-Identifier: MIT
/// The `output` topic's event: the output's mode or the requested one
/// changed (the `output` command, or a reload).
public struct OutputEvent: Codable, Equatable, Sendable {
    public var event = "output"
    public var mode: String
    public var requested: String
    public var reason: String
    /// As `status`'s `output.captures_pen`; optional for an older daemon.
    public var capturesPen: Bool?
    /// CLOCK_MONOTONIC µs of the change, as every event's `time_us`.
    public var time: Int64
    enum CodingKeys: String, CodingKey {
        case event, mode, requested, reason, capturesPen = "captures_pen", time = "time_us"
    }

    public init(_ output: StatusResult.OutputInfo, time: Int64) {
        mode = output.mode
        requested = output.requested
        reason = output.reason
        capturesPen = output.capturesPen
        self.time = time
    }
}
