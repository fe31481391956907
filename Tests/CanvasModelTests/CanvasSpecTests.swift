// SPDX-License-Identifier: MIT
import CanvasModel
import Foundation
import StylusCore
import Testing

/// canvas-spec.json, as every renderer's tests read it: the Swift model here, the
/// GNOME extension's under gjs (gnome-extension/tests/), the screenshot suites in
/// Python (Tests/support/canvas_spec.py). A vector that fails here says which one
/// and what the model gives instead, so an intended change is copied into the file.
enum CanvasSpecFile {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CanvasModel/canvas-spec.json")

    // Read once, never written.
    nonisolated(unsafe) static let root: [String: Any] = {
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { fatalError("\(url.path): missing or not a JSON object") }
        return object
    }()

    static var constants: [String: Any] { root["constants"] as! [String: Any] }
    static func vectors(_ name: String) -> [[String: Any]] { (root["vectors"] as! [String: Any])[name] as! [[String: Any]] }
    static func constant(_ path: String) -> Any? {
        path.split(separator: ".").reduce(constants as Any?) { ($0 as? [String: Any])?[String($1)] }
    }
    static func number(_ path: String) -> Double { (constant(path) as! NSNumber).doubleValue }
    static func strings(_ path: String) -> [String] { constant(path) as! [String] }
}

private func double(_ any: Any?) -> Double { (any as! NSNumber).doubleValue }
private func point(_ any: Any?) -> InkPoint {
    let xyp = (any as! [Any]).map(double)
    return InkPoint(x: xyp[0], y: xyp[1], pressure: xyp[2])
}
private func style(_ any: Any?) -> InkStyle {
    let s = any as! [String: Any]
    return InkStyle(tool: DrawingTool(rawValue: s["tool"] as! String)!, color: StrokeColor(hex: s["color"] as! String)!,
                    width: double(s["width"]))
}
private func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }

@Suite("The canvas spec (canvas-spec.json)")
struct CanvasSpecTests {
    typealias Spec = CanvasSpecFile

    @Test func theStyleConstantsAreTheModels() {
        #expect(Spec.number("referenceWidth") == InkGeometry.referenceWidth)
        #expect(Spec.strings("tools") == DrawingTool.allCases.map(\.rawValue), "the tool order (palette, tool events)")
        #expect(Spec.strings("shapes") == DrawingTool.allCases.filter(\.isShape).map(\.rawValue))
        #expect(Spec.strings("drawsWhole") == DrawingTool.allCases.filter(\.drawsWhole).map(\.rawValue))
        #expect(style(Spec.constant("defaultStyle")) == InkStyle())
        #expect(Spec.number("width.eraserFactor") == StrokeStyle.eraserWidthFactor)
        #expect(Spec.number("width.highlighterFactor") == StrokeStyle.highlighterWidthFactor)
        #expect(Spec.number("width.highlighterOpacity") == StrokeStyle.highlighterOpacity)
        #expect(Spec.number("width.pressureFloor") == InkStyle().referenceWidth(pressure: 0, 0) / InkStyle().width)
        #expect(Spec.number("width.shapeFactor") == InkStyle(tool: .line).referenceWidth(pressure: 1, 1) / InkStyle().width)
        let range = (Spec.constant("widthRange") as! [Any]).map(double)
        #expect(range == [StrokeStyle.widthRange.lowerBound, StrokeStyle.widthRange.upperBound])
        #expect((Spec.constant("widthSteps") as! [Any]).map(double) == StyleRequest.widthSteps)
    }

    @Test func theTextConstantsAreTheModels() {
        #expect(Spec.constant("text.font") as? String == StrokeText.fontFamily)
        #expect(Spec.number("text.widthFactor") == StrokeText.widthFactor)
        let range = (Spec.constant("text.sizeRange") as! [Any]).map(double)
        #expect(range == [StrokeText.sizeRange.lowerBound, StrokeText.sizeRange.upperBound])
        #expect(Int(Spec.number("text.maxLength")) == StrokeText.maxLength)
        #expect(Int(Spec.number("text.maxLines")) == StrokeText.maxLines)
        #expect(Spec.number("text.baselineShare") == StrokeText.baselineShare)
        #expect(Spec.number("text.lineHeightShare") == StrokeText.lineHeightShare)
        #expect(Spec.number("text.advanceShare") == StrokeText.advanceShare)
    }

    @Test(arguments: CanvasSpecFile.vectors("text").indices)
    func aTextVector(_ index: Int) {
        let v = Spec.vectors("text")[index]
        let size = StrokeText.size(forWidth: double(v["width"]))
        #expect(near(size, double(v["size"])), "\(v): the model gives size \(size)")
        let baselines = (v["baselines"] as! [Any]).map(double)
        for (i, want) in baselines.enumerated() {
            #expect(near(StrokeText.baseline(line: i, size: size), want), "\(v): line \(i)")
        }
    }

    @Test func theTimingsAndTheRingAreTheRenderers() {
        #expect(Int(Spec.number("timings.fadeMilliseconds")) == CanvasSpec.fadeMilliseconds)
        #expect(Int(Spec.number("timings.laserLifetimeMilliseconds")) == StrokeBook.laserLifetimeMilliseconds)
        #expect(Int(Spec.number("timings.deadDaemonHideMilliseconds")) == CanvasSpec.deadDaemonHideMilliseconds)
        #expect(Spec.number("hoverRing.radius") == CanvasSpec.hoverRingRadius)
        #expect(Spec.number("hoverRing.width") == CanvasSpec.hoverRingWidth)
        #expect(Spec.number("indicator.frameWidth") == CanvasSpec.indicatorFrameWidth)
        #expect(Spec.number("indicator.frameOpacity") == CanvasSpec.indicatorFrameOpacity)
        #expect(Spec.number("indicator.badgeRadius") == CanvasSpec.indicatorBadgeRadius)
        #expect(Spec.number("indicator.badgeInset") == CanvasSpec.indicatorBadgeInset)
        #expect(Spec.number("indicator.badgeOutline") == CanvasSpec.indicatorBadgeOutline)
    }

    @Test func thePaletteConstantsAreTheLayouts() {
        #expect(Spec.strings("palette.colors") == StyleRequest.defaultPalette.map(\.hex))
        #expect(Spec.number("palette.shareOfShorterSide") == PaletteLayout.shareOfShorterSide)
        #expect(Spec.number("palette.sideMin") == PaletteLayout.sideRange.lowerBound)
        #expect(Spec.number("palette.sideMax") == PaletteLayout.sideRange.upperBound)
        #expect(Spec.number("palette.marginShare") == PaletteLayout.marginShare)
        #expect(Spec.number("palette.backgroundPadShare") == PaletteLayout.backgroundPadShare)
        #expect(Spec.number("palette.glyphInsetShare") == CanvasSpec.paletteGlyphInsetShare)
    }

    @Test(arguments: CanvasSpecFile.vectors("widths").indices)
    func aWidthVector(_ index: Int) {
        let v = Spec.vectors("widths")[index]
        let p = (v["pressures"] as! [Any]).map(double)
        let s = InkStyle(tool: DrawingTool(rawValue: v["tool"] as! String)!, width: double(v["width"]))
        let got = s.referenceWidth(pressure: p[0], p[1])
        #expect(near(got, double(v["referenceWidth"])), "\(v): the model gives \(got)")
    }

    @Test(arguments: CanvasSpecFile.vectors("palette").indices)
    func aPaletteVector(_ index: Int) {
        let v = Spec.vectors("palette")[index]
        let colors = (v["colors"] as! [String]).map { StrokeColor(hex: $0)! }
        let buttons = PaletteLayout.buttons(colors: colors, width: double(v["width"]), height: double(v["height"]))
        let want = v["buttons"] as! [[String: Any]]
        #expect(buttons.count == want.count)
        for (b, w) in zip(buttons, want) {
            let kind: PaletteButton.Kind = switch w["kind"] as! String {
            case "color": .color(StrokeColor(hex: w["value"] as! String)!)
            case "tool": .tool(DrawingTool(rawValue: w["value"] as! String)!)
            case "narrower": .narrower
            case "board": .board
            default: .wider
            }
            let side = double(w["side"])
            #expect(b.kind == kind && near(b.rect.x, double(w["x"])) && near(b.rect.y, double(w["y"]))
                    && near(b.rect.width, side) && near(b.rect.height, side),
                    "\(v["width"]!)x\(v["height"]!): \(w) but the model gives \(b)")
        }
    }

    @Test(arguments: CanvasSpecFile.vectors("paletteRegions").indices)
    func aPaletteRegionsVector(_ index: Int) {
        let v = Spec.vectors("paletteRegions")[index]
        let monitor = v["monitor"] as! [String: Any], g = v["geometry"] as! [String: Any]
        let buttons = PaletteLayout.buttons(colors: StyleRequest.defaultPalette, width: double(monitor["width"]), height: double(monitor["height"]))
        let geometry = InkGeometry(width: double(g["width"]), height: double(g["height"]), originX: double(g["x"]), originY: double(g["y"]))
        let regions = PaletteLayout.regions(buttons, geometry: geometry)
        let want = v["regions"] as! [[String: Any]]
        #expect(regions.count == want.count, "\(g): \(regions.count) regions, the spec \(want.count)")
        for (r, w) in zip(regions, want) {
            #expect(near(r.x, double(w["x"])) && near(r.y, double(w["y"])) && near(r.width, double(w["width"]))
                    && near(r.height, double(w["height"])) && r.selectionText == w["select"] as! String,
                    "\(w) but the model gives \(r)")
        }
    }

    @Test(arguments: CanvasSpecFile.vectors("strokeBook").indices)
    func aStrokeBookVector(_ index: Int) {
        let v = Spec.vectors("strokeBook")[index]
        let name = v["name"] as! String
        var book = StrokeBook()
        for (n, step) in (v["steps"] as! [[String: Any]]).enumerated() {
            let at = "\(name), step \(n + 1) (\(step["op"]!))"
            switch step["op"] as! String {
            case "pen":
                let got = book.penSample(device: UInt32(double(step["device"])), style: style(step["style"]),
                                         point: point(step["point"]), tip: step["tip"] as! Bool)
                let want: StrokeBook.LiveChange
                switch step["expect"] {
                case let text as String where text == "none": want = .none
                case let text as String where text == "redrawLive": want = .redrawLive
                case let object as [String: Any]:
                    let segment = object["segment"] as! [Any]
                    want = .segment(point(segment[0]), point(segment[1]), style(step["style"]))
                default: Issue.record("\(at): unknown expectation \(step["expect"] ?? "nil")"); return
                }
                #expect(got == want, "\(at)")
            case "reconcile":
                let strokes = (step["strokes"] as! [[String: Any]]).map {
                    InkStroke(device: 1, style: style($0["style"]), points: ($0["points"] as! [Any]).map(point))
                }
                let got = book.reconcile(strokes, rebuild: step["rebuild"] as! Bool)
                let expect = step["expect"] as! [String: Any]
                let want: StrokeBook.Reconciliation = switch expect["finished"] {
                case let text as String where text == "unchanged": .unchanged
                case let text as String where text == "rebuild": .rebuild
                default: .append(Int(double((expect["finished"] as! [Any])[0]))..<Int(double((expect["finished"] as! [Any])[1])))
                }
                #expect(got.finished == want && got.liveChanged == expect["liveChanged"] as! Bool, "\(at): the model gives \(got)")
            case "endStroke":
                #expect(book.endStroke(device: UInt32(double(step["device"]))) == step["expect"] as! Bool, "\(at)")
            case "expireOldestLaser":
                #expect(book.expireOldestLaser() == step["expect"] as! Bool, "\(at)")
            case "clear":
                book.clear()
            case "state":
                let want = step["expect"] as! [String: Any]
                let got: [String: Any] = ["finished": book.finished.count, "liveDone": book.liveDone.count,
                                          "lasers": book.lasers.count, "current": book.liveCurrent.keys.sorted().map(Int.init)]
                #expect(Int(double(want["finished"])) == book.finished.count && Int(double(want["liveDone"])) == book.liveDone.count
                        && Int(double(want["lasers"])) == book.lasers.count
                        && (want["current"] as! [Any]).map { Int(double($0)) } == book.liveCurrent.keys.sorted().map(Int.init),
                        "\(at): the model holds \(got)")
            default:
                Issue.record("\(at): unknown op")
            }
        }
    }
}

@Suite("The board constants (canvas-spec.json board)")
struct CanvasBoardSpecTests {
    typealias Spec = CanvasSpecFile

    @Test func theBoardConstantsAreTheRenderers() {
        #expect(Spec.constant("board.white") as? String == CanvasBoard.white.hex)
        #expect(Spec.constant("board.black") as? String == CanvasBoard.black.hex)
        #expect(Spec.constant("board.gridPaper") as? String == CanvasBoard.gridPaper.hex)
        #expect(Spec.constant("board.gridLine") as? String == CanvasBoard.gridLine.hex)
        #expect(Spec.number("board.gridSpacing") == CanvasBoard.gridSpacing)
        #expect(Spec.number("board.gridLineWidth") == CanvasBoard.gridLineWidth)
    }

    @Test func theGridStartsAtTheAreasCornerAndScalesWithIt() {
        // 1600 px wide: a line every 40 px, the first at 0.
        #expect(CanvasBoard.gridLines(origin: 0, length: 100, areaWidth: 1600) == [0, 40, 80])
        // A window 1000 px into an area 3200 wide: the lines 80 apart go on where the first window's stopped.
        #expect(CanvasBoard.gridLines(origin: 1000, length: 200, areaWidth: 3200) == [40, 120])
        #expect(CanvasBoard.gridLineWidth(areaWidth: 3200) == 2)
        #expect(CanvasBoard.gridLineWidth(areaWidth: 400) == 1)
        #expect(CanvasBoard.paper(.none) == nil)
        #expect(CanvasBoard.paper(.color(StrokeColor(hex: "#123456")!)) == StrokeColor(hex: "#123456"))
    }
}

extension CanvasBoardSpecTests {
    @Test func theGridVectors() {
        for v in Spec.vectors("boardGrid") {
            let origin = double(v["origin"]), length = double(v["length"]), area = double(v["areaWidth"])
            let lines = (v["lines"] as! [Any]).map(double)
            let got = CanvasBoard.gridLines(origin: origin, length: length, areaWidth: area)
            #expect(got.count == lines.count && zip(got, lines).allSatisfy { near($0, $1) }, "boardGrid \(v): the model gives \(got)")
            #expect(near(CanvasBoard.gridLineWidth(areaWidth: area), double(v["lineWidth"])), "boardGrid \(v)")
        }
    }
}

@Suite("The open-canvas sign against canvas-spec.json")
struct OpenIndicatorSpecTests {
    typealias Spec = CanvasSpecFile

    @Test func theIndicatorVectors() {
        let vectors = Spec.vectors("indicator")
        #expect(vectors.count >= 4)
        for v in vectors {
            let kind = CanvasIndicator(rawValue: v["kind"] as! String)!
            let want = (v["rects"] as! [[Any]]).map { r in r.map(double) }
            let got = OpenIndicator.rects(kind, width: double(v["width"]), height: double(v["height"])).map { [$0.x, $0.y, $0.width, $0.height] }
            #expect(got == want, "indicator \(v): the model gives \(got)")
        }
    }
}
