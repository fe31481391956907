// SPDX-License-Identifier: MIT
import Testing
@testable import StylusProtocol

@Suite("The overlay command and status field")
struct OverlayProtocolTests {
    static func decode(_ line: String) -> Result<Request, RequestFailure> { Request.decode(Array(line.utf8)) }

    @Test func aReportTravelsBothWays() throws {
        let request = Request(id: .number(2), command: .overlay(OverlayReport(backend: "layer-shell", outputs: 2)))
        #expect(String(decoding: request.line, as: UTF8.self) == #"{"backend":"layer-shell","cmd":"overlay","id":2,"outputs":2}"# + "\n")
        #expect(try Self.decode(#"{"id":2,"cmd":"overlay","backend":"layer-shell","outputs":2}"#).get() == request)
        #expect(CommandName.overlay.argument == .overlayReport)
        let sized = Request(id: .number(2), command: .overlay(OverlayReport(backend: "x11", outputs: 1, width: 1920, height: 1080)))
        #expect(try Request.decode(Array(sized.line.dropLast())).get() == sized, "the area the tablet maps to goes with the report")
        for (line, message) in [(#"{"id":3,"cmd":"overlay","backend":"x11","outputs":1,"width":1920}"#, #"overlay takes "width" and "height" together, or neither"#),
                                (#"{"id":3,"cmd":"overlay","backend":"x11","outputs":1,"width":0,"height":5}"#, #"overlay's "width" (the area the tablet maps to) must be a whole number of pixels from 1 to 1048576, not 0"#)] {
            guard case .failure(let f) = Self.decode(line) else { Issue.record("accepted \(line)"); continue }
            #expect(f.error.message == message)
        }
    }

    @Test(arguments: [
        (#"{"id":3,"cmd":"overlay","outputs":1}"#, "backend"),
        (#"{"id":3,"cmd":"overlay","backend":"","outputs":1}"#, "backend"),
        (#"{"id":3,"cmd":"overlay","backend":"Layer Shell","outputs":1}"#, "backend"),
        (#"{"id":3,"cmd":"overlay","backend":"a-name-longer-than-thirty-two-bytes","outputs":1}"#, "backend"),
        (#"{"id":3,"cmd":"overlay","backend":"x11"}"#, "outputs"),
        (#"{"id":3,"cmd":"overlay","backend":"x11","outputs":1.5}"#, "outputs"),
        (#"{"id":3,"cmd":"overlay","backend":"x11","outputs":-1}"#, "outputs"),
        (#"{"id":3,"cmd":"overlay","backend":"x11","outputs":65}"#, "outputs"),
        (#"{"id":3,"cmd":"overlay","backend":"x11","outputs":"2"}"#, "outputs"),
    ])
    func aBadReportIsABadRequestNamingTheField(line: String, field: String) throws {
        guard case .failure(let failure) = Self.decode(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(failure.id == .number(3))
        #expect(failure.error.code == .badRequest)
        #expect(failure.error.message.hasPrefix("overlay needs \"\(field)\""), "\(failure.error.message)")
    }

    @Test func statusCarriesTheReportAndReadsAStatusWithout() throws {
        var status = OutputProtocolTests.status
        status.overlay = OverlayReport(backend: "wayland-toplevel", outputs: 1)
        let line = String(decoding: Response.success(id: .number(1), status), as: UTF8.self)
        #expect(line.contains(#","overlay":{"backend":"wayland-toplevel","outputs":1},"#), "\(line)")
        #expect(try ProtocolV1.decode(StatusResult.self, from: Response.line(status)) == status)
        status.overlay = nil
        #expect(!String(decoding: Response.success(id: .number(1), status), as: UTF8.self).contains("overlay"))
    }
}
