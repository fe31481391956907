// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusConfig
@testable import StylusCore
@testable import StylusDaemon
import StylusProtocol
import Testing

/// The daemon's side of `output`, without a socket or a loop: the command
/// is handed to the daemon (which owns the output), `status` reports what
/// the daemon says of it, and the command line wins over `[output]`.
@Suite("Output switch")
struct OutputSwitchTests {
    static func handler() -> CommandHandler {
        CommandHandler(config: EngineConfig(), buttonOnlyReason: "no /dev/input here", tracksPens: true, log: { _ in })
    }

    static func object(_ bytes: [UInt8]) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(bytes.dropLast())) else {
            throw CommandHandlerTests.Failure("not an object")
        }
        return o
    }

    @Test(arguments: OutputChoice.allCases)
    func theCommandGoesToTheDaemonWithItsIdAndMode(mode: OutputChoice) {
        let h = Self.handler()
        var topics: Set<Topic> = []
        let answer = h.answer(Array(#"{"id":"o","cmd":"output","mode":"\#(mode.rawValue)"}"#.utf8), topics: &topics, now: 1)
        guard case .switchOutput(let id, let to) = answer else {
            Issue.record("answered \(answer) instead of handing the switch to the daemon")
            return
        }
        #expect(id == .string("o") && to == mode)
    }

    @Test func statusReportsTheOutputTheDaemonDescribesAndNoticesAChange() throws {
        let h = Self.handler()
        var info = StatusResult.OutputInfo(mode: "observe", requested: "auto", reason: "observe: no /dev/uinput; load the module")
        h.outputStatus = { info }
        var topics: Set<Topic> = []
        func output() throws -> JSONValue? {
            guard case .now(let bytes) = h.answer(Array(#"{"id":1,"cmd":"status"}"#.utf8), topics: &topics, now: 1),
                  case .object(let result)? = try Self.object(bytes)["result"] else { throw CommandHandlerTests.Failure("no result") }
            return result["output"]
        }
        #expect(try output() == .object(["mode": .string("observe"), "requested": .string("auto"),
                                         "reason": .string("observe: no /dev/uinput; load the module"), "waiting": .array([]), "captures_pen": .bool(false)]))
        info = .init(mode: "filter", requested: "filter", reason: "filter: grabbing", waiting: ["/dev/input/event4"])
        #expect(try output() == .object(["mode": .string("filter"), "requested": .string("filter"),
                                         "reason": .string("filter: grabbing"), "waiting": .array([.string("/dev/input/event4")]), "captures_pen": .bool(false)]),
                "a status asked for again after a switch is not the cached one")
        info.capturesPen = true
        guard case .object(let fields)? = try output() else { throw CommandHandlerTests.Failure("no output") }
        #expect(fields["captures_pen"] == .bool(true), "a grab that waited changes status at once")
    }

    @Test func theAnswerIsTheStatusAfterOrTheReasonFilterIsImpossible() throws {
        let h = Self.handler()
        h.outputStatus = { .init(mode: "observe", requested: "observe", reason: "observe: asked for") }
        let changed = try Self.object(h.outputAnswer(id: .number(2), .success(true)))
        guard case .object(let result)? = changed["result"] else { throw CommandHandlerTests.Failure("no result") }
        #expect(changed["ok"] == .bool(true) && result["changed"] == .bool(true))
        guard case .object(let output)? = result["output"] else { throw CommandHandlerTests.Failure("no output in \(result)") }
        #expect(output["mode"] == .string("observe"))
        let same = try Self.object(h.outputAnswer(id: .number(3), .success(false)))
        guard case .object(let sameResult)? = same["result"] else { throw CommandHandlerTests.Failure("no result") }
        #expect(sameResult["changed"] == .bool(false) && sameResult["reason"] == .string("output is already observe, requested observe"))
        let refused = try Self.object(h.outputAnswer(id: .number(4), .failure(ProtocolError(code: .failed, message: "filter is not possible: x"))))
        #expect(refused["ok"] == .bool(false) && refused["id"] == .number(4))
        #expect(refused["error"] == .object(["code": .string("failed"), "message": .string("filter is not possible: x")]))
    }

    static func options(_ overrides: ConfigOverrides) -> DaemonOptions {
        DaemonOptions(input: .recording(path: "/dev/null", description: nil, loop: false, speed: 1), socketPath: "/tmp/x.sock",
                      statePath: nil, configPath: nil, configPathIsExplicit: false, overrides: overrides, printing: .none, environment: [:])
    }

    @Test func theCommandLineWinsOverTheFileAndLeavesWhatItDoesNotSay() throws {
        var file = EngineConfig()
        file.output.mode = .filter
        file.output.passthrough = [.never, .deferred, .immediate]
        file.output.captureWhileCanvasOpen = true
        #expect(try Self.options(ConfigOverrides()).finishConfig(file).get().output == file.output, "no option: the file's")
        var overrides = ConfigOverrides()
        overrides.output = .observe
        overrides.passthrough = .deferred
        overrides.captureWhileCanvasOpen = false
        let finished = try Self.options(overrides).finishConfig(file).get().output
        #expect(finished.mode == .observe)
        #expect(finished.passthrough == [.deferred, .deferred, .deferred])
        #expect(!finished.captureWhileCanvasOpen)
        #expect(try Self.options(ConfigOverrides()).finishConfig(nil).get().output.mode == .auto, "no file and no option: auto")
    }
}
