// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: CommandName.subscribe.summary,
        discussion: "Topics: \(Topic.allCases.map { $0 == .pen ? "pen (per-sample pen data)" : $0 == .button ? "button (every press and release)" : $0.rawValue }.joined(separator: ", ")). Default: every topic but \(Topic.allCases.filter { !Topic.defaults.contains($0) }.map(\.rawValue).joined(separator: " and ")).")
    @Argument(help: "Topics to follow.", completion: .list(Topic.allCases.map(\.rawValue))) var topics: [String] = []
    @OptionGroup var socket: SocketOption
    @Flag(help: "One JSON object per line, exactly as the daemon sends them.") var json = false

    func validate() throws {
        for t in topics where Topic(rawValue: t) == nil {
            throw ValidationError(unknownWord("topic", t, among: Topic.allCases.map(\.rawValue)))
        }
    }

    func run() throws {
        try client { () throws(StylusClientError) in
            let connection = try socket.connect()
            let followed = topics.isEmpty ? Topic.defaults : topics.compactMap(Topic.init(rawValue:))
            _ = try connection.send(.subscribe(followed)).raw()
            // At once, on standard error (standard output carries only events): what is watched, from what state.
            printError(Self.firstLine(topics: followed, status: try connection.send(.status).typed(StatusResult.self)))
            while let event = try connection.nextEvent() {
                emit(json ? event.raw : Array((Self.describe(event) + "\n").utf8))
            }
            throw StylusClientError(.notRunning, "stylusd closed the connection (it stopped)")
        }
    }

    /// "watching canvas, double-press …; now: canvas minimized (0 strokes), …".
    static func firstLine(topics: [Topic], status: StatusResult) -> String {
        // As `status` says it: the pens by name, or why there is none.
        let pens = status.input.devices.filter { $0.kind == "pen" }.map(\.name)
        let input = status.input.mode == "pen" ? "pen" + (pens.isEmpty ? "" : " " + pens.joined(separator: ", "))
            : "button-only" + (status.input.reason.map { " (\($0))" } ?? "")
        return "watching \(topics.map(\.rawValue).joined(separator: ", ")) (Ctrl-C stops); now: canvas \(status.canvas.state) "
            + "(\(counted(status.canvas.strokeCount, "stroke"))), precision \(status.precision.enabled ? "enabled" : "disabled"), input \(input)"
            + (status.output.map { ", output \($0.mode)" } ?? "")
    }

    /// "12:34:56.789 canvas state=open source=pen …": the local wall-clock time of the
    /// event, its name, then its fields. `time_us` is CLOCK_MONOTONIC (what the kernel
    /// stamps input with); `wallClockOffset` (µs, realtime − monotonic, read now) turns
    /// it into the time of day. `--json` keeps `time_us` as the daemon sent it.
    static func describe(_ event: EventLine, wallClockOffset: Int64 = wallClockOffsetNow()) -> String {
        var parts: [String] = []
        if let micros = event.time {
            var seconds = time_t((micros + wallClockOffset) / 1_000_000)
            let ms = ((micros + wallClockOffset) % 1_000_000) / 1000
            var local = tm()
            localtime_r(&seconds, &local)
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            parts.append("\(two(local.tm_hour)):\(two(local.tm_min)):\(two(local.tm_sec)).\(String(1000 + ms).dropFirst())")
        }
        parts.append(event.name)
        for key in event.fields.keys.sorted() where key != "event" && key != "time_us" {
            let v = event.fields[key]!
            parts.append("\(key)=\(v.string ?? stylusctl.json(v))")
        }
        return parts.joined(separator: " ")
    }
}

/// Microseconds from CLOCK_MONOTONIC to CLOCK_REALTIME, now.
func wallClockOffsetNow() -> Int64 {
    var real = timespec(), mono = timespec()
    clock_gettime(CLOCK_REALTIME, &real)
    clock_gettime(CLOCK_MONOTONIC, &mono)
    return (Int64(real.tv_sec) - Int64(mono.tv_sec)) * 1_000_000 + (Int64(real.tv_nsec) - Int64(mono.tv_nsec)) / 1000
}
