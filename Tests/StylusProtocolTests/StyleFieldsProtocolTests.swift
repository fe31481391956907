// SPDX-License-Identifier: MIT
import StylusCore
import Testing
@testable import StylusProtocol

@Suite("the tool command takes colour names and steps, as bindings do")
struct StyleFieldsProtocolTests {
    static func command(_ json: String) -> Result<ClientCommand, ProtocolError> {
        Request.decode(Array(json.utf8)).map(\.command).mapError(\.error)
    }

    @Test(arguments: [("crimson", "#dc143c"), ("Crimson", "#dc143c"), ("#fff", "#ffffff"), ("#3465A4", "#3465a4")])
    func aColourNameIsReadAndSentOnAsItsHex(name: String, hex: String) throws {
        let decoded = try Self.command(#"{"cmd":"tool","color":"\#(name)"}"#).get()
        #expect(decoded == .tool(tool: nil, color: StrokeColor(hex: hex)!, width: nil))
        #expect(decoded.fields["color"] == .string(hex), "what a client re-encodes says #rrggbb")
    }

    @Test(arguments: [
        (#"{"cmd":"tool","tool":"previous"}"#, StyleRequest.previousTool),
        (#"{"cmd":"tool","color":"next"}"#, .nextColor),
        (#"{"cmd":"tool","color":"previous"}"#, .previousColor),
        (#"{"cmd":"tool","width":"+"}"#, .wider),
        (#"{"cmd":"tool","width":"-"}"#, .narrower),
    ])
    func aStepIsTheBindingsRequestAndRoundTrips(json: String, request: StyleRequest) throws {
        let decoded = try Self.command(json).get()
        #expect(decoded == .styleStep(request))
        let line = Request(id: .number(1), command: decoded).line
        #expect(try Request.decode(Array(line.dropLast())).get().command == decoded)
    }

    @Test(arguments: [
        (#"{"cmd":"tool","color":"crimsn"}"#, #""color": unknown colour "crimsn"; did you mean crimson?"#),
        (#"{"cmd":"tool","color":"transparent"}"#, #""color": "transparent" is a CSS keyword, not a colour"#),
        (#"{"cmd":"tool","color":"next","tool":"pen"}"#, #""color": "next" is a step from the current style; send it without "tool""#),
        (#"{"cmd":"tool","tool":"previous","width":"+"}"#, #""tool": "previous" is a step from the current style; send it without "width""#),
        (#"{"cmd":"tool","width":"wider"}"#, #""width" must be a number from 1 to 64 (pixels of a drawing 1600 wide), or "+" or "-", not "wider""#),
        (#"{"cmd":"tool","width":"NaN"}"#, #""width" must be a number from 1 to 64"#),
        (#"{"cmd":"tool","tool":"next"}"#, #"unknown tool "next"; tools are pen"#),
        (#"{"cmd":"tool","color":null}"#, #""color" must be a CSS colour name"#),
    ])
    func aBadValueIsABadRequestNamingIt(json: String, message: String) {
        guard case .failure(let error) = Self.command(json) else {
            Issue.record("accepted \(json)")
            return
        }
        #expect(error.code == .badRequest)
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test func aHugeColourIsRefusedWithAShortMessage() {
        let json = #"{"cmd":"tool","color":""# + String(repeating: "z", count: 100_000) + #""}"#
        guard case .failure(let error) = Self.command(json) else {
            Issue.record("accepted")
            return
        }
        #expect(error.message.count < 200)
    }
}
