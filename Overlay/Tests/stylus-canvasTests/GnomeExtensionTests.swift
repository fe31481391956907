// SPDX-License-Identifier: MIT
@testable import stylus_canvas
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("which GNOME extension variant is installed and which one GNOME needs")
struct GnomeExtensionTests {
    @Test func eachGnomeGetsTheVariantItsVersionIsListedIn() {
        #expect(GnomeExtension.variant(forShell: 43) == 43 && GnomeExtension.variant(forShell: 44) == 43)
        #expect(GnomeExtension.variant(forShell: 45) == 45 && GnomeExtension.variant(forShell: 48) == 45)
        #expect(GnomeExtension.variant(forShell: 42) == nil && GnomeExtension.variant(forShell: 49) == nil)
    }

    @Test func theInstalledMetadataSaysWhichVariantItIs() throws {
        var template = Array("/tmp/stylus-gnome-XXXXXX".utf8CString)
        let folder = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { _ = unlink(folder + "/metadata.json"); _ = rmdir(folder) }
        let file = try #require(fopen(folder + "/metadata.json", "w"))
        fputs("{\n  \"uuid\": \"stylus-canvas@stylusd\",\n  \"shell-version\": [\"45\", \"46\", \"47\", \"48\"],\n  \"version\": 1\n}\n", file)
        fclose(file)
        let versions = GnomeExtension.shellVersions(inExtensionAt: folder)
        #expect(versions == [45, 46, 47, 48])
        #expect(GnomeExtension.describe(versions: versions ?? []) == "the variant for GNOME 45-48")
        #expect(GnomeExtension.shellVersions(inExtensionAt: folder + "/absent") == nil)
    }

    @Test func anOutOfDateCopyNamesBothVariantsTheFixAndItsReport() {
        let (reason, report) = GnomeExtension.outOfDate(installed: [43, 44], shell: "48.7")
        #expect(reason.hasPrefix("GNOME marks it out of date: the installed copy is the variant for GNOME 43-44, "
                                 + "and GNOME Shell 48.7 needs the variant for GNOME 45-48; run `sudo "), "\(reason)")
        #expect(reason.contains("select-gnome-extension`"), "\(reason)")
        #expect(report == "missing-outdated-43-on-48")
        let (newer, newerReport) = GnomeExtension.outOfDate(installed: [45, 46, 47, 48], shell: "49.1")
        #expect(newer.contains("no variant of this stylusd lists GNOME Shell 49.1")
                && newer.contains("disable-extension-version-validation"), "\(newer)")
        #expect(newerReport == "missing-outdated-45-on-49")
        #expect(GnomeExtension.outOfDate(installed: nil, shell: nil).report == "missing", "without the facts, the plain report")
    }
}
