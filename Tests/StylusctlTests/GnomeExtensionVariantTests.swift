// SPDX-License-Identifier: MIT
@testable import StylusProtocol
import Testing
@testable import stylusctl

@Suite("status's overlay line names the GNOME extension copy that runs and the GNOME that loaded it")
struct GnomeExtensionVariantTests {
    static func line(_ report: OverlayReport) -> String? {
        var status = OutdatedGnomeExtensionTests.status(overlay: "gnome-extension")
        status.overlay = report
        return describeStatus(status).split(separator: "\n").last.map(String.init)
    }

    @Test func theLoadedVariantAndItsShell() {
        #expect(Self.line(OverlayReport(backend: "gnome-extension", outputs: 1, variant: "45", shell: "48.7"))
                == "overlay    the GNOME Shell extension stylus-canvas@stylusd (the variant for GNOME 45-48, loaded by GNOME Shell 48.7), 1 monitor")
        #expect(Self.line(OverlayReport(backend: "gnome-extension", outputs: 2, variant: "43", shell: "43.9"))
                == "overlay    the GNOME Shell extension stylus-canvas@stylusd (the variant for GNOME 43-44, loaded by GNOME Shell 43.9), 2 monitors")
    }

    @Test func anExtensionThatDoesNotSayKeepsTheLineItHad() {
        #expect(Self.line(OverlayReport(backend: "gnome-extension", outputs: 1))
                == "overlay    the GNOME Shell extension stylus-canvas@stylusd, 1 monitor")
        #expect(Self.line(OverlayReport(backend: "gnome-extension", outputs: 1, variant: "50"))
                == "overlay    the GNOME Shell extension stylus-canvas@stylusd (a variant stylusd does not know), 1 monitor")
    }

    @Test func theReportTravelsWithItsVersionsAndRefusesOthers() throws {
        let report = Request(id: .number(4), command: .overlay(OverlayReport(backend: "gnome-extension", outputs: 1, variant: "45", shell: "48.7")))
        #expect(try Request.decode(Array(report.line.dropLast())).get() == report)
        var status = OutdatedGnomeExtensionTests.status(overlay: "gnome-extension")
        status.overlay = OverlayReport(backend: "gnome-extension", outputs: 1, variant: "45", shell: "48.7")
        let line = String(decoding: Response.success(id: .number(1), status), as: UTF8.self)
        #expect(line.contains(#""overlay":{"backend":"gnome-extension","outputs":1,"shell":"48.7","variant":"45"}"#), "\(line)")
        #expect(try ProtocolV1.decode(StatusResult.self, from: Response.line(status)) == status)
        for (field, value) in [("variant", #""""#), ("variant", "45"), ("shell", #""48 beta""#), ("shell", #""12345678901234567""#)] {
            let text = #"{"id":3,"cmd":"overlay","backend":"gnome-extension","outputs":1,"\#(field)":\#(value)}"#
            guard case .failure(let f) = Request.decode(Array(text.utf8)) else { Issue.record("accepted \(text)"); continue }
            #expect(f.error.code == .badRequest && f.error.message.hasPrefix("overlay's \"\(field)\" must be a version"), "\(f.error.message)")
        }
    }
}
