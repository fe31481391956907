// SPDX-License-Identifier: MIT
@testable import StylusProtocol
import Testing
@testable import stylusctl

@Suite("status's overlay line for a GNOME extension copy made for another GNOME")
struct OutdatedGnomeExtensionTests {
    static func status(overlay backend: String) -> StatusResult {
        StatusResult(canvas: .init(state: "minimized", hasContent: false, strokeCount: 0, pointCount: 0, full: false),
                     precision: .init(enabled: false, active: false), input: .init(mode: "pen", reason: nil, devices: []),
                     config: .init(intervalMS: 500, debounceMS: 25, transitionMS: 250), overlay: OverlayReport(backend: backend, outputs: 0))
    }

    @Test func theDebian12CopyOnGnome48NamesBothVariantsAndTheSelector() {
        let text = describeStatus(Self.status(overlay: "missing-outdated-43-on-48"))
        #expect(text.hasSuffix("\noverlay    none: GNOME Shell 48 marks the extension stylus-canvas@stylusd out of date: the installed copy is "
                               + "the variant for GNOME 43-44, it needs the variant for GNOME 45-48; sudo /usr/lib/stylusd/select-gnome-extension "
                               + "(make install: PREFIX/lib/stylusd/), then log out and in"), "\(text)")
    }

    @Test func aGnomeNoVariantListsIsSaidSo() {
        let text = describeStatus(Self.status(overlay: "missing-outdated-45-on-49"))
        #expect(text.contains("the installed copy is the variant for GNOME 45-48, and no variant of this stylusd lists GNOME 49"), "\(text)")
    }

    @Test func otherNamesAreNotOutOfDateReports() {
        for name in ["missing", "missing-outdated-43", "missing-outdated-x-on-48", "missing-outdated-43-at-48", "layer-shell"] {
            #expect(OutdatedGnomeExtension(report: name) == nil, "\(name)")
        }
        #expect(describeStatus(Self.status(overlay: "missing")).contains("gnome-extensions enable stylus-canvas@stylusd"))
        #expect(OverlayReport.isBackendName("missing-outdated-43-on-48"), "the daemon accepts the name")
    }
}
