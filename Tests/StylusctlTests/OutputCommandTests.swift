// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusCore
import StylusProtocol
import Testing
@testable import stylusctl

@Suite("stylusctl output and the output line of status")
struct OutputCommandTests {
    @Test(arguments: OutputChoice.allCases)
    func eachModeParses(mode: OutputChoice) throws {
        let command = try OutputCommand.parse([mode.rawValue, "--socket", "/tmp/s.sock", "--json"])
        #expect(command.mode == mode.rawValue && command.json && command.socket.socket == "/tmp/s.sock")
    }

    @Test func anUnknownModeIsRefusedWithTheNearestOne() {
        do {
            _ = try OutputCommand.parse(["filtr"])
            Issue.record("accepted filtr")
        } catch {
            #expect(OutputCommand.message(for: error) == "the mode is observe, filter or auto, not \"filtr\"; did you mean \"filter\"?")
        }
        #expect(throws: (any Error).self) { try OutputCommand.parse([]) }
    }

    @Test func itIsASubcommandWithTheProtocolsSummary() throws {
        #expect(CommandName.output.subcommand == OutputCommand.self)
        #expect(try Stylusctl.parseAsRoot(["output", "observe"]) is OutputCommand)
        #expect(Stylusctl.unknownCommandMessage("outptu") == "stylusctl: unknown command \"outptu\"; did you mean \"output\"?")
        let script = Stylusctl.completionScript(for: .bash)
        for mode in OutputChoice.allCases { #expect(script.contains(mode.rawValue)) }
    }

    static func status(_ output: StatusResult.OutputInfo?) -> StatusResult {
        StatusResult(canvas: .init(state: "open", hasContent: false, strokeCount: 0, pointCount: 0, full: false),
                     precision: .init(enabled: false, active: false), input: .init(mode: "pen", reason: nil, devices: []),
                     config: .init(intervalMS: 500, debounceMS: 25, transitionMS: 250), output: output)
    }

    @Test func statusSaysTheModeWhatWasAskedForAndWhy() {
        let observe = describeStatus(Self.status(.init(mode: "observe", requested: "auto",
                                                       reason: "observe: the desktop reads the pen directly; filter is not possible: load the module")))
        #expect(observe.hasSuffix("\noutput     observe (requested auto): the desktop reads the pen directly; filter is not possible: load the module"), "\(observe)")
        let waiting = describeStatus(Self.status(.init(mode: "filter", requested: "filter", reason: "filter: grabbing",
                                                       waiting: ["/dev/input/event5", "/dev/input/event9"])))
        #expect(waiting.hasSuffix("""
            output     filter (requested filter): grabbing
                       waiting to grab /dev/input/event5, /dev/input/event9 (the pen is in proximity or a button is held)
            """), "\(waiting)")
        #expect(!describeStatus(Self.status(nil)).contains("output"), "an older daemon's status has no output line")
    }

    @Test func watchNamesTheOutputModeInItsFirstLine() {
        let line = Watch.firstLine(topics: [.output], status: Self.status(.init(mode: "observe", requested: "observe", reason: "")))
        #expect(line.hasSuffix("input pen, output observe"), "\(line)")
    }
}
