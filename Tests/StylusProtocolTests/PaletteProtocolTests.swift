// SPDX-License-Identifier: MIT
import Testing
import StylusCore
@testable import StylusProtocol

@Suite("palette and palette-regions on the wire")
struct PaletteProtocolTests {
    static func decode(_ line: String) -> Result<ClientCommand, ProtocolError> {
        Request.decode(Array(line.utf8)).map(\.command).mapError(\.error)
    }

    static func message(_ line: String) -> String? {
        if case .failure(let e) = decode(line) { e.message } else { nil }
    }

    @Test func regionsDecodeToTheirSelections() throws {
        let line = #"{"cmd":"palette-regions","regions":[{"x":0,"y":0.9,"width":0.05,"height":0.1,"select":"color:#3465a4"},{"x":0.05,"y":0.9,"width":0.05,"height":0.1,"select":"width:+"}]}"#
        let command = try Self.decode(line).get()
        #expect(command == .paletteRegions([
            PaletteRegion(x: 0, y: 0.9, width: 0.05, height: 0.1, selection: .style(.set(tool: nil, color: StrokeColor(hex: "#3465a4"), width: nil))),
            PaletteRegion(x: 0.05, y: 0.9, width: 0.05, height: 0.1, selection: .style(.wider)),
        ]))
        #expect(try Self.decode(#"{"cmd":"palette-regions","regions":[]}"#).get() == .paletteRegions([]))
        #expect(try Self.decode(#"{"cmd":"palette","action":"toggle"}"#).get() == .palette(.toggle))
    }

    @Test func badRegionsAreNamedWithTheirValue() {
        let region = #"{"x":0,"y":0.9,"width":0.05,"height":0.1,"select":"color:#3465a4"}"#
        #expect(Self.message(#"{"cmd":"palette-regions"}"#)?.hasPrefix("palette-regions needs \"regions\": an array of up to 64 objects") == true)
        #expect(Self.message(#"{"cmd":"palette-regions","regions":{"x":1}}"#)?.hasSuffix(", not an object") == true)
        let many = "[" + Array(repeating: region, count: 65).joined(separator: ",") + "]"
        #expect(Self.message(#"{"cmd":"palette-regions","regions":"# + many + "}") == "\"regions\" holds 65 regions; at most 64")
        #expect(Self.message(#"{"cmd":"palette-regions","regions":[5]}"#) == "regions[0] must be an object, not 5")
        #expect(Self.message(#"{"cmd":"palette-regions","regions":["# + region + #",{"x":1.5,"y":0,"width":0.1,"height":0.1,"select":"width:+"}]}"#)
                == "regions[1].x must be a number from 0 to 1 (the tablet's normalised coordinates), not 1.5")
        #expect(Self.message(#"{"cmd":"palette-regions","regions":[{"x":0,"y":0,"width":0,"height":0.1,"select":"width:+"}]}"#)
                == "regions[0].width must be a number above 0 and at most 1 (the tablet's normalised coordinates), not 0")
        #expect(Self.message(#"{"cmd":"palette-regions","regions":[{"x":0,"width":0.1,"height":0.1,"select":"width:+"}]}"#)
                == "regions[0].y must be a number from 0 to 1 (the tablet's normalised coordinates), and is missing")
        #expect(Self.message(#"{"cmd":"palette-regions","regions":[{"x":0.95,"y":0,"width":0.1,"height":0.1,"select":"width:+"}]}"#)
                == "regions[0] reaches past the tablet's right edge: x 0.95 + width 0.1 is more than 1")
        #expect(Self.message(#"{"cmd":"palette-regions","regions":[{"x":0,"y":0,"width":0.1,"height":0.1,"select":"tool:brush"}]}"#)?
                .hasPrefix("regions[0].select: unknown tool \"brush\"") == true)
        #expect(Self.message(#"{"cmd":"palette-regions","regions":[{"x":0,"y":0,"width":0.1,"height":0.1,"select":"undo"}]}"#)
                == "regions[0].select: \"undo\" is not a palette selection; use tool:NAME, color:NAME, color:#RRGGBB, color:next, color:previous, width:N, width:+, width:- or background:NAME|next")
        #expect(Self.message(#"{"cmd":"palette-regions","regions":[{"x":0,"y":0,"width":0.1,"height":0.1,"select":"width:+","colour":"red"}]}"#)
                == "regions[0] has an unknown field \"colour\"; its fields are x, y, width, height, select")
        #expect(Self.message(#"{"cmd":"palette","action":"open"}"#) == "palette needs \"action\": \"show\", \"hide\" or \"toggle\", not \"open\"")
    }
}
