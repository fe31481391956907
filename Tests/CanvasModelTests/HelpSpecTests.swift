// SPDX-License-Identifier: MIT
import CanvasModel
import Foundation
import Testing

private func double(_ any: Any?) -> Double { (any as! NSNumber).doubleValue }
/// Within a billionth of a pixel: Foundation's JSON reader can land a long decimal
/// (411.63399999999996, a scaled layout's) on the neighbouring double; the
/// extension's test compares the same vectors exactly.
private func near(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }

@Suite("The help overlay in the canvas spec (canvas-spec.json help)")
struct HelpSpecTests {
    typealias Spec = CanvasSpecFile

    @Test func theConstantsAreTheLayouts() {
        #expect(Spec.strings("help.keys") == CanvasSpec.helpKeys)
        #expect(Spec.constant("help.title") as? String == CanvasSpec.helpTitle)
        #expect(Spec.number("help.fontSize") == CanvasSpec.helpFontSize)
        #expect(Spec.number("help.lineHeight") == CanvasSpec.helpLineHeight)
        #expect(Spec.number("help.baseline") == CanvasSpec.helpBaseline)
        #expect(Spec.number("help.padding") == CanvasSpec.helpPadding)
        #expect(Spec.number("help.margin") == CanvasSpec.helpMargin)
        #expect(Spec.number("help.keyColumnWidth") == CanvasSpec.helpKeyColumnWidth)
        #expect(Spec.number("help.actionColumnWidth") == CanvasSpec.helpActionColumnWidth)
        #expect(Spec.number("help.blockGap") == CanvasSpec.helpBlockGap)
        #expect(Spec.number("help.cornerRadius") == CanvasSpec.helpCornerRadius)
        #expect(Spec.constant("help.panelColor") as? String == CanvasSpec.helpPanelColor)
        #expect(Spec.number("help.panelOpacity") == CanvasSpec.helpPanelOpacity)
        #expect(Spec.constant("help.titleColor") as? String == CanvasSpec.helpTitleColor)
        #expect(Spec.constant("help.keyColor") as? String == CanvasSpec.helpKeyColor)
        #expect(Spec.constant("help.actionColor") as? String == CanvasSpec.helpActionColor)
        #expect(Spec.constant("help.keyLabels") as? [String: String] == CanvasSpec.helpKeyLabels)
        #expect(Spec.constant("help.labels") as? [String: String] == CanvasSpec.helpLabels)
    }

    @Test func everyDefaultActionHasALabel() {
        for (_, action) in CanvasSpec.keys { #expect(CanvasSpec.helpLabels[action] != nil, "\(action) has no label in help.labels") }
    }

    @Test(arguments: CanvasSpecFile.vectors("help").indices)
    func aLayoutVector(_ index: Int) {
        let v = Spec.vectors("help")[index]
        let got = HelpLayout(lines: (v["lines"] as! NSNumber).intValue, width: double(v["width"]), height: double(v["height"]))
        let panel = (v["panel"] as! [Any]).map(double)
        #expect(near([got.panel.x, got.panel.y, got.panel.width, got.panel.height], panel), "\(v["width"]!)x\(v["height"]!): the model gives \(got.panel)")
        #expect(near([got.titleX, got.titleBaseline], (v["title"] as! [Any]).map(double)))
        let rows = (v["rows"] as! [[Any]]).map { $0.map(double) }
        #expect(near(got.rows.flatMap { [$0.keyX, $0.labelX, $0.baseline] }, rows.flatMap { $0 }), "\(v["width"]!)x\(v["height"]!): the rows differ")
        #expect(near([got.scale], [double(v["scale"])]), "\(v["width"]!)x\(v["height"]!): the model's scale is \(got.scale)")
        // What the scale is for: the panel stays on the monitor, inside its margins where it can.
        #expect(got.panel.x >= 0 && got.panel.x + got.panel.width <= double(v["width"]), "\(v["width"]!)x\(v["height"]!): the panel leaves the monitor")
    }

    @Test(arguments: CanvasSpecFile.vectors("helpLines").indices)
    func aLinesVector(_ index: Int) {
        let v = Spec.vectors("helpLines")[index]
        let table = (v["table"] as! [[String]]).map { (key: $0[0], action: $0[1]) }
        let want = (v["lines"] as! [[String]]).map { [$0[0], $0[1]] }
        #expect(HelpLines.lines(table).map { [$0.keys, $0.label] } == want)
    }

    @Test func theSpecsDefaultsAreTheFilesKeys() {
        let file = Spec.constant("keys") as! [String: String]
        #expect(Dictionary(uniqueKeysWithValues: CanvasSpec.keys.map { ($0.key, $0.action) }) == file)
    }

    /// docs/USAGE.md's key table is the lines of the default keys, as `stylus-canvas --help` prints them.
    @Test func usageHoldsTheKeyTable() throws {
        let usage = try String(contentsOf: CanvasSpecFile.url.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/USAGE.md"), encoding: .utf8)
        let table = HelpLines.markdown(CanvasSpec.keys)
        #expect(usage.contains(table + "\n"), "docs/USAGE.md should hold, as it is:\n\(table)")
    }
}
