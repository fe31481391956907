// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusConfig
import StylusCore
import StylusDaemon
import StylusInput
import StylusOutput
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the engine over an evemu recording and print its events.",
        discussion: """
            Uses the recording's own kernel timestamps, so the output is the same on every run. \
            Pending timers (a canvas transition) fire after the last event. \
            A double press bound to preset:, exec:, key: or click: is reported as ignored, with the reason: \
            a replay performs none of them (a running daemon does). \
            The summary goes to standard error.
            """
    )

    @Argument(help: "An evemu recording (evemu-record output).", completion: .file(extensions: ["events"]))
    var file: String

    @Option(help: "Device description for a recording without a header (an evemu .desc file).", completion: .file(extensions: ["desc"]))
    var desc: String?

    @OptionGroup var engine: EngineOptions

    @Flag(help: "One JSON object per line, as the socket's subscriptions send them.")
    var json = false

    @Option(name: .customLong("output-frames"), help: ArgumentHelp(
        "Also write the evdev frames filter mode would give the pen's virtual clone to this file, as evemu E: lines ('-' = standard output instead of the events).",
        valueName: "file"))
    var outputFrames: String?

    @Option(help: ArgumentHelp("With --output-frames: what reaches the desktop of a bound side button: defer, immediate or never (default defer).", valueName: "mode"))
    var passthrough: String?

    @Flag(name: .customLong("no-capture"), help: "With --output-frames: keep the clone in proximity while the canvas is open.")
    var noCapture = false

    func run() throws {
        if outputFrames != nil { return try runFrames() }
        let config = try engine.engineConfig()
        var out = [UInt8]()
        out.reserveCapacity(1 << 16)
        let json = self.json
        func flushOut() {
            if !out.isEmpty, !writeAll(STDOUT_FILENO, out) {
                // A closed pipe (`| head`) is not an error worth a message.
                Stylusd.exit(withError: ExitCode(errno == EPIPE ? 0 : 1))
            }
            out.removeAll(keepingCapacity: true)
        }
        let summary: RecordingPlayer.Summary
        do {
            summary = try RecordingPlayer.play(file: file, descriptionFile: desc, config: config) { event in
                if json {
                    out = event.jsonLine(into: out)
                } else {
                    out.append(contentsOf: event.text.utf8)
                    out.append(0x0a)
                }
                if out.count > 60_000 { flushOut() }
            }
        } catch {
            flushOut()
            var message = Array("stylusd replay: \(error)\n".utf8)
            _ = writeAll(STDERR_FILENO, message)
            message.removeAll()
            throw ExitCode(65)   // EX_DATAERR
        }
        flushOut()
        let line = "\(file): \(counted(summary.evdevEvents, "evdev event")), \(counted(summary.doublePresses, "double press", plural: "double presses")), canvas \(summary.finalCanvas.rawValue) with \(counted(summary.strokes, "stroke"))\n"
        _ = writeAll(STDERR_FILENO, Array(line.utf8))
    }

    private func runFrames() throws {
        let config = try engine.engineConfig()
        var filter = FilterConfig()
        if let passthrough {
            guard let mode = Passthrough(rawValue: passthrough) else {
                throw ValidationError("--passthrough \(passthrough): use defer, immediate or never")
            }
            filter.passthrough = [mode, mode, mode]
        }
        filter.captureWhileCanvasOpen = !noCapture
        let path = outputFrames!
        let framesToStdout = path == "-"
        let fd: Int32 = framesToStdout ? STDOUT_FILENO : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ValidationError("--output-frames \(path): \(String(cString: strerror(errno)))") }
        defer { if !framesToStdout { _ = Glibc.close(fd) } }
        var frames = [UInt8]()
        var events = [UInt8]()
        let json = self.json
        func flush(force: Bool = false) {
            if force || frames.count > 60_000 {
                if !frames.isEmpty, !writeAll(fd, frames) { Stylusd.exit(withError: ExitCode(errno == EPIPE ? 0 : 1)) }
                frames.removeAll(keepingCapacity: true)
            }
            if force || events.count > 60_000 {
                if !events.isEmpty, !writeAll(STDOUT_FILENO, events) { Stylusd.exit(withError: ExitCode(errno == EPIPE ? 0 : 1)) }
                events.removeAll(keepingCapacity: true)
            }
        }
        var frameCount = 0
        let summary: RecordingPlayer.Summary
        do {
            summary = try RecordingPlayer.playFrames(file: file, descriptionFile: desc, config: config, filter: filter, onEvent: { event in
                guard !framesToStdout else { return }
                if json { events = event.jsonLine(into: events) } else { events.append(contentsOf: event.text.utf8); events.append(0x0a) }
                flush()
            }, onFrameEvent: { e in
                frames.append(contentsOf: RecordingPlayer.evemuLine(e).utf8)
                frames.append(0x0a)
                if e.isReport { frameCount += 1 }
                flush()
            })
        } catch {
            flush(force: true)
            _ = writeAll(STDERR_FILENO, Array("stylusd replay: \(error)\n".utf8))
            throw ExitCode(65)
        }
        flush(force: true)
        let line = "\(file): \(summary.evdevEvents) evdev events, \(summary.doublePresses) double presses, \(frameCount) clone frames, canvas \(summary.finalCanvas.rawValue) with \(summary.strokes) strokes\n"
        _ = writeAll(STDERR_FILENO, Array(line.utf8))
    }
}
