// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusProtocol

@Suite("The output command, status field and event")
struct OutputProtocolTests {
    static func decode(_ line: String) -> Result<Request, RequestFailure> { Request.decode(Array(line.utf8)) }

    @Test(arguments: OutputChoice.allCases)
    func theCommandCarriesItsModeBothWays(mode: OutputChoice) throws {
        let request = Request(id: .number(4), command: .output(mode))
        #expect(String(decoding: request.line, as: UTF8.self) == #"{"cmd":"output","id":4,"mode":"\#(mode.rawValue)"}"# + "\n")
        #expect(try Self.decode(#"{"id":4,"cmd":"output","mode":"\#(mode.rawValue)"}"#).get() == request)
        #expect(ClientCommand.output(mode).name == .output && CommandName.output.argument == .outputMode)
    }

    @Test(arguments: [#"{"id":5,"cmd":"output"}"#, #"{"id":5,"cmd":"output","mode":"grab"}"#, #"{"id":5,"cmd":"output","mode":1}"#,
                      #"{"id":5,"cmd":"output","mode":"Observe"}"#])
    func aMissingOrUnknownModeIsABadRequestWithTheId(line: String) throws {
        guard case .failure(let failure) = Self.decode(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(failure.id == .number(5))
        #expect(failure.error == ProtocolError(code: .badRequest, message: #"output needs "mode": "observe", "filter" or "auto""#))
    }

    static let status = StatusResult(
        canvas: .init(state: "minimized", hasContent: false, strokeCount: 0, pointCount: 0, full: false),
        precision: .init(enabled: false, active: false),
        input: .init(mode: "pen", reason: nil, devices: []),
        config: .init(intervalMS: 500, debounceMS: 25, transitionMS: 250),
        output: .init(mode: "filter", requested: "auto", reason: "filter: stylusd grabs the pen", waiting: ["/dev/input/event7"],
                      capturesPen: false))

    @Test func theStatusFieldHasTheAgreedShape() throws {
        let line = String(decoding: Response.success(id: .number(1), Self.status), as: UTF8.self)
        #expect(line.contains(#","output":{"captures_pen":false,"mode":"filter","reason":"filter: stylusd grabs the pen","requested":"auto","waiting":["/dev/input/event7"]},"#), "\(line)")
        #expect(try ProtocolV1.decode(StatusResult.self, from: Response.line(Self.status)) == Self.status)
        let none = StatusResult.OutputInfo(mode: "observe", requested: "observe", reason: "observe: asked for")
        #expect(String(decoding: Response.line(none), as: UTF8.self) == #"{"captures_pen":false,"mode":"observe","reason":"observe: asked for","requested":"observe","waiting":[]}"# + "\n",
                "waiting is always there, empty when nothing waits")
    }

    @Test func capturesPenIsSaidInStatusAndEventAndAnOlderDaemonsLackOfItDecodesAsUnknown() throws {
        var captured = Self.status.output!
        captured.capturesPen = true
        #expect(String(decoding: Response.line(captured), as: UTF8.self).hasPrefix(#"{"captures_pen":true,"#))
        #expect(String(decoding: Response.line(OutputEvent(captured, time: 1)), as: UTF8.self).hasPrefix(#"{"captures_pen":true,"#))
        let old = #"{"mode":"filter","reason":"r","requested":"auto","waiting":[]}"#
        #expect(try ProtocolV1.decode(StatusResult.OutputInfo.self, from: Array(old.utf8)).capturesPen == nil)
    }

    @Test func anOlderDaemonsStatusWithoutOutputStillDecodes() throws {
        var old = Self.status
        old.output = nil
        let line = Response.line(old)
        #expect(!String(decoding: line, as: UTF8.self).contains("output"))
        #expect(try ProtocolV1.decode(StatusResult.self, from: line).output == nil)
    }

    @Test func theEventIsOnTheOutputTopic() throws {
        let event = OutputEvent(Self.status.output!, time: 1_500_000)
        let line = Response.line(event)
        #expect(String(decoding: line, as: UTF8.self)
                == #"{"captures_pen":false,"event":"output","mode":"filter","reason":"filter: stylusd grabs the pen","requested":"auto","time_us":1500000}"# + "\n")
        guard case .event(let parsed)? = ServerLine.decode(line) else {
            Issue.record("not an event")
            return
        }
        #expect(parsed.topic == .output && parsed.string("mode") == "filter" && parsed.string("requested") == "auto" && parsed.time == 1_500_000)
        #expect(try ProtocolV1.decode(OutputEvent.self, from: line) == event)
    }

    @Test func theTopicIsSubscribedByDefaultAndNamedInHello() throws {
        #expect(Topic.defaults.contains(.output), "a rare state change, like canvas and device")
        #expect(HelloEvent(pid: 1).topics.contains("output") && HelloEvent(pid: 1).commands?.contains("output") == true)
        #expect(try Self.decode(#"{"id":1,"cmd":"subscribe","topics":["output"]}"#).get().command == .subscribe([.output]))
    }
}
