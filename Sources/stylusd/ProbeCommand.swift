// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusConfig
import StylusCore
import StylusDaemon
import StylusInput
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `stylusd probe`; the probing itself is StylusInput's `Probe`.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "List every /dev/input/event* node and what stylusd can use of it."
    )

    @Flag(help: "One JSON document instead of readable lines.")
    var json = false

    func run() throws {
        let report = Probe.run()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(report)
            _ = writeAll(STDOUT_FILENO, Array(data) + [0x0a])
        } else {
            var text = report.nodes.map(\.text).joined(separator: "\n")
            if !text.isEmpty { text += "\n" }
            if let reason = report.buttonOnlyReason {
                text += "no pen: \(reason); stylusd would run button-only\n"
            } else {
                text += "\(report.pens.count) pen\(report.pens.count == 1 ? "" : "s") usable\n"
            }
            _ = writeAll(STDOUT_FILENO, Array(text.utf8))
        }
    }
}
