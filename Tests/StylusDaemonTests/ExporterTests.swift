// SPDX-License-Identifier: MIT
import FoundationEssentials
@testable import StylusCore
@testable import StylusDaemon
import StylusProtocol
import StylusSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What `export` and `submit` check in the loop before a helper writes
/// anything, where submit's pictures go, and the SVG the helper writes.
@Suite("export and submit")
struct ExporterTests {
    /// A fresh folder under /tmp, removed by the caller.
    static func folder() -> String { StateStoreTests.temporaryDirectory() }

    static func message(_ r: Result<Exporter.Target, ProtocolError>) -> String? {
        if case .failure(let e) = r { return e.message }
        return nil
    }

    @Test func aPathInAFolderThatCanBeWrittenIsATarget() throws {
        let dir = Self.folder()
        defer { rmdir(dir) }
        let t = try Exporter.target(path: dir + "/a.SVG", width: 300, height: 200).get()
        #expect(t == Exporter.Target(path: dir + "/a.SVG", format: .svg, width: 300, height: 200))
    }

    @Test func aMissingFolderAFileAsFolderAndAFolderAsFileAreNamed() throws {
        let dir = Self.folder()
        defer { rmdir(dir + "/sub"); unlink(dir + "/file"); rmdir(dir) }
        #expect(Self.message(Exporter.target(path: dir + "/nope/a.png", width: 10, height: 10)) == "cannot export to \(dir)/nope/a.png: the folder \(dir)/nope does not exist")
        #expect(writeAll(open(dir + "/file", O_WRONLY | O_CREAT, 0o600), [1]))
        #expect(Self.message(Exporter.target(path: dir + "/file/a.png", width: 10, height: 10)) == "cannot export to \(dir)/file/a.png: \(dir)/file is not a folder")
        #expect(mkdir(dir + "/sub.png", 0o700) == 0)
        defer { rmdir(dir + "/sub.png") }
        #expect(Self.message(Exporter.target(path: dir + "/sub.png", width: 10, height: 10))?.contains("it is a folder") == true)
        #expect(Self.message(Exporter.target(path: dir + "/a.gif", width: 10, height: 10))?.contains("ending in .png or .svg") == true)
        #expect(Self.message(Exporter.target(path: dir + "/a.png", width: 0, height: 10)) == "cannot export 0×10 pixels: each side must be from 1 to 8192")
    }

    @Test func aFolderThatTakesNoNewFilesIsNamed() throws {
        let message = Self.message(Exporter.target(path: "/proc/a.png", width: 10, height: 10))
        // /proc makes no new files for anyone, root included (ENOENT, before any permission check).
        #expect(message == "cannot export to /proc/a.png: the folder /proc takes no new files (a kernel file system such as /proc)",
                "\(message ?? "accepted")")
    }

    @Test func theDefaultSizeIsTheTabletsProportionsAt1600Wide() {
        #expect(Exporter.defaultSize(pens: []) == (1600, 900))
        #expect(Exporter.defaultSize(pens: [PenArea(widthMM: 216, heightMM: 135, direct: false)]) == (1600, 1000))
        #expect(Exporter.defaultSize(pens: [PenArea(widthMM: nil, heightMM: nil, direct: false), PenArea(widthMM: 300, heightMM: 300, direct: false)]) == (1600, 1600))
    }

    @Test func submitWritesToTheConfiguredFolderElsePictures() {
        let env = ["HOME": "/home/u"]
        #expect(Exporter.exportDirectory(configured: "~/ink", environment: env, userDirs: nil) == "/home/u/ink")
        #expect(Exporter.exportDirectory(configured: "/srv/ink", environment: env, userDirs: nil) == "/srv/ink")
        #expect(Exporter.exportDirectory(configured: nil, environment: env.merging(["XDG_PICTURES_DIR": "/data/pics"]) { a, _ in a }, userDirs: nil) == "/data/pics/stylusd")
        let dirs = "# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n"
        #expect(Exporter.exportDirectory(configured: nil, environment: env, userDirs: dirs) == "/home/u/Bilder/stylusd")
        #expect(Exporter.exportDirectory(configured: nil, environment: env, userDirs: "XDG_PICTURES_DIR=\"$HOME/\"\n") == "/home/u/Pictures/stylusd",
                "a pictures folder that is home itself means none")
        #expect(Exporter.exportDirectory(configured: nil, environment: env, userDirs: nil) == "/home/u/Pictures/stylusd")
    }

    @Test func submitNamesFilesByLocalTimeAndNeverReusesOne() {
        setenv("TZ", "UTC", 1)
        tzset()
        let taken: Set<String> = ["/p/stylusd-2026-11-25-193012.png", "/p/stylusd-2026-11-25-193012-2.png"]
        #expect(Exporter.submitPath(directory: "/p", at: 1_795_635_012, exists: { _ in false }) == "/p/stylusd-2026-11-25-193012.png")
        #expect(Exporter.submitPath(directory: "/p", at: 1_795_635_012, exists: taken.contains) == "/p/stylusd-2026-11-25-193012-3.png")
    }

    @Test func theExportsSVGIsTheInkOnTransparent() {
        let strokes = [Stroke(device: DeviceID(1), style: StrokeStyle(tool: .pen, color: StrokeColor(hex: "#3465a4")!, width: 8), points: [
            StrokePoint(x: 0.25, y: 0.5, pressure: 1, tiltX: 0, tiltY: 0, time: 1),
            StrokePoint(x: 0.75, y: 0.5, pressure: 1, tiltX: 0, tiltY: 0, time: 2),
        ])]
        let svg = Exporter.svg(strokes, width: 400, height: 200)
        #expect(svg.contains(#"<line x1="100.0" y1="100.0" x2="300.0" y2="100.0" stroke-width="2.0"/>"#), "\(svg)")
        #expect(svg.contains(##"stroke="#3465a4""##) && !svg.contains("fill=\"white\"/>\n<g"), "no background: ink on transparent")
    }

    @Test func theSVGHelperWritesTheFileAndNamesWhatWentWrong() throws {
        let dir = Self.folder()
        defer { unlink(dir + "/a.svg"); rmdir(dir) }
        let input = Response.EncodedResult(StrokesResult(canvas: "open", strokes: [])).bytes
        // The helper reads standard input: give it a pipe holding the strokes.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(writeAll(ends[1], input))
        close(ends[1])
        let saved = dup(STDIN_FILENO)
        dup2(ends[0], STDIN_FILENO)
        close(ends[0])
        let status = Exporter.svgChildMain([dir + "/a.svg", "640x480"])
        dup2(saved, STDIN_FILENO)
        close(saved)
        #expect(status == 0)
        let written = String(decoding: try readFile(dir + "/a.svg"), as: UTF8.self)
        #expect(written.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480" width="640" height="480">"#))
        #expect(access(dir + "/.a.svg.stylusd-partial", F_OK) != 0, "no temporary file is left")
    }

    @Test func theHandlerLeavesExportAndSubmitToTheLoopAndDiscardsAtOnce() throws {
        let h = CommandHandlerTests.handler()
        var topics: Set<Topic> = []
        guard case .export(let id, let request) = CommandHandlerTests.ask(h, #"{"id":1,"cmd":"export","path":"/tmp/a.svg","width":64,"height":48}"#, topics: &topics) else {
            Issue.record("export was answered at once")
            return
        }
        #expect(id == .number(1) && request == .file(path: "/tmp/a.svg", width: 64, height: 48))
        guard case .export(_, .submit) = CommandHandlerTests.ask(h, #"{"id":2,"cmd":"submit"}"#, topics: &topics) else {
            Issue.record("submit was answered at once")
            return
        }
        let discard = try CommandHandlerTests.json(CommandHandlerTests.ask(h, #"{"id":3,"cmd":"discard"}"#, topics: &topics))
        guard case .object(let o) = discard, case .object(let result)? = o["result"] else { throw CommandHandlerTests.Failure("\(discard)") }
        #expect(result["changed"] == .bool(false), "a minimized, empty canvas: nothing to discard")
        _ = CommandHandlerTests.ask(h, #"{"id":4,"cmd":"open"}"#, topics: &topics)
        h.submitted(path: "/p/a.png", source: .pad, now: 2_000)
        guard case .canvas(let ended)? = h.effects.events.first(where: { if case .canvas(let e) = $0 { e.cause == .submit } else { false } }) else {
            Issue.record("no submit event: \(h.effects.events)")
            return
        }
        #expect(ended.result == .submitted && ended.path == "/p/a.png" && ended.source == .pad, "a pad's double press asked for it")
    }

    @Test func withoutTheRendererPNGExportSaysWhatIsMissing() {
        let exporter = Exporter(environment: ["PATH": "/nonexistent", "STYLUSD_RENDERER": ""], svgWriter: "/bin/false", log: { _ in })
        guard case .failure(let error) = exporter.findRenderer() else { return }   // a stylus-canvas beside the test binary
        #expect(error.message.contains("PNG export needs the canvas renderer stylus-canvas, which is not installed"))
        #expect(error.message.contains("STYLUSD_RENDERER is not set in stylusd's environment"))
        #expect(error.message.contains(".svg needs no renderer"))
        let named = Exporter(environment: ["STYLUSD_RENDERER": "/nonexistent/stylus-canvas"], svgWriter: "/bin/false", log: { _ in })
        guard case .failure(let namedError) = named.findRenderer() else { Issue.record("a missing renderer was found"); return }
        #expect(namedError.message.contains("STYLUSD_RENDERER=/nonexistent/stylus-canvas in stylusd's environment is not a program that can be run"))
    }
}
