// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusDaemon

/// Version 3 of the state file: a text stroke keeps its words and size; a
/// version 2 file (before texts) loads as it did.
@Suite("State file: texts (version 3)")
struct StateTextTests {
    static func textCanvas() -> Canvas {
        var text = Stroke(device: StrokeSource.keyboard.device!, style: StrokeStyle(tool: .text, color: StrokeColor(hex: "#3465a4")!, width: 8),
                          points: [StrokePoint(x: 0.25, y: 0.5, pressure: 1, tiltX: 0, tiltY: 0, time: 9)])
        text.text = StrokeText(string: "Tschüss \"<&>\"\nline 2 ✓", size: 30)
        return Canvas(state: .open, strokes: [
            Stroke(device: DeviceID(1), style: StrokeStyle(), points: [StrokePoint(x: 0.1, y: 0.2, pressure: 0.3, tiltX: 0, tiltY: 0, time: 7)]),
            text,
        ])
    }

    @Test func aTextSurvivesASaveAndLoadAndIsWrittenAsJSONEncoderWritesIt() throws {
        let state = PersistedState(canvas: Self.textCanvas(), precisionEnabled: false)
        #expect(state.version == 3)
        let bytes = try #require(state.json())
        #expect(bytes == (try StateJSONTests.encoderBytes(state)))
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""text_size":30"#))
        let path = "\(StateStoreTests.temporaryDirectory())/state.json"
        try StateStore(path: path).save(state)
        guard case .loaded(let loaded, _) = StateStore(path: path).load(now: 1) else {
            Issue.record("did not load")
            return
        }
        #expect(loaded.strokes == Self.textCanvas().strokes)
        #expect(loaded.strokes[1].text?.string == "Tschüss \"<&>\"\nline 2 ✓")
    }

    @Test func aVersionTwoFileLoadsUnchanged() {
        let file = ##"{"canvas":"open","precision_enabled":true,"strokes":[{"color":"#4e9a06","device":2,"pressure":[0.5,1],"tilt_x":[0,0],"tilt_y":[0,0],"time_us":[1,2],"tool":"arrow","width":12,"x":[0.1,0.2],"y":[0.3,0.4]}],"style":{"color":"#3465a4","tool":"pen","width":4},"version":2}"##
        guard case .loaded(let canvas, let precision) = StateStore(path: StateVersionTests.writeFile(file)).load(now: 1) else {
            Issue.record("a version 2 state file did not load")
            return
        }
        #expect(precision && canvas.state == .open)
        #expect(canvas.strokes.count == 1 && canvas.strokes[0].text == nil)
        #expect(canvas.strokes[0].style == StrokeStyle(tool: .arrow, color: StrokeColor(hex: "#4e9a06")!, width: 12))
        #expect(canvas.strokes[0].points.map(\.x) == [0.1, 0.2])
        #expect(canvas.style == StrokeStyle(tool: .pen, color: StrokeColor(hex: "#3465a4")!, width: 4))
    }

    @Test(arguments: [("", "a text needs"), (#","text":"hi""#, "a text needs"), (#","text":"","text_size":24"#, "a text needs"),
                      (#","text":"hi","text_size":500"#, "a text needs")])
    func aTextWithoutItsWordsOrSizeIsCorrupt(fields: String, message: String) {
        let file = ##"{"canvas":"open","precision_enabled":false,"strokes":[{"color":"#d61a1c","device":1,"pressure":[1]"##
            + fields + ##","tilt_x":[0],"tilt_y":[0],"time_us":[1],"tool":"text","width":8,"x":[0.5],"y":[0.5]}],"version":3}"##
        guard case .corrupt(let reason, _) = StateStore(path: StateVersionTests.writeFile(file)).load(now: 1) else {
            Issue.record("accepted \(fields)")
            return
        }
        #expect(reason.contains(message), "\(reason)")
    }
}
