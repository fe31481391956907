// SPDX-License-Identifier: MIT
import Testing
import StylusCore
@testable import StylusInput

@Suite("evemu reader")
struct EvemuReaderTests {
    static let header = """
        N: Test Pen
        I: 0003 056a 00b9 0104
        P: 00 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 01 1c 00 00 00 00 00 00
        B: 03 03 00 00 01 00 00 00 00
        A: 00 0 44704 4 0 200
        A: 01 0 27940 4 0
        A: 18 0 2047 0 0 0

        """

    static func read(_ text: String, description: DeviceDescription? = nil) throws(RecordingError) -> (DeviceDescription?, [(UInt16, UInt16, Int32, Microseconds)]) {
        var device: DeviceDescription?
        var events: [(UInt16, UInt16, Int32, Microseconds)] = []
        try EvemuReader.read(Array(text.utf8), file: "test.events", description: description,
                             onStart: { device = $0 }, onEvent: { events.append(($0, $1, $2, $3)) })
        return (device, events)
    }

    static func error(_ text: String, description: DeviceDescription? = nil) -> RecordingError? {
        do {
            _ = try read(text, description: description)
            return nil
        } catch {
            return error
        }
    }

    @Test func aHeaderDescribesTheDevice() throws {
        let (device, _) = try Self.read(Self.header)
        let d = try #require(device)
        #expect(d.name == "Test Pen")
        #expect(d.vendor == 0x56a && d.product == 0xb9 && d.bustype == 3 && d.version == 0x104)
        #expect(d.absInfo[ABS.x] == AbsInfo(minimum: 0, maximum: 44704, fuzz: 4, flat: 0, resolution: 200))
        #expect(d.absInfo[ABS.y]?.resolution == 0, "EVEMU 1.1 lines have no resolution")
        #expect(d.has(type: EV.key, code: BTN.toolPen))
        #expect(d.has(type: EV.key, code: BTN.stylus) && d.has(type: EV.key, code: BTN.stylus2))
        #expect(d.has(type: EV.abs, code: ABS.pressure))
        #expect(d.kind == .pen)
        #expect(d.sideButtons == [.stylus, .stylus2])
    }

    @Test func eventLinesCarryKernelTimeInMicrosecondsAndIgnoreComments() throws {
        let (_, events) = try Self.read(Self.header + """
            E: 1369413636.405673 0003 0000 71789\t# EV_ABS / ABS_X   71789
            # a comment line
            E: 1369413636.000001 0004 0000 -494927427
            E: 12.5 0000 0000 0000

            """)
        #expect(events.count == 3)
        #expect(events[0] == (3, 0, 71789, 1_369_413_636_405_673))
        #expect(events[1].2 == -494_927_427)
        #expect(events[2].3 == 12_500_000, "a short fraction is read as a decimal fraction")
    }

    @Test func aHeaderlessEventFileNeedsADescription() throws {
        let body = "E: 1.000000 0001 014b 1\n"
        let e = try #require(Self.error(body))
        #expect(e.line == 1)
        #expect(e.message.contains("--desc"))
        let (device, events) = try Self.read(body, description: DeviceDescription(name: "given"))
        #expect(device?.name == "given")
        #expect(events.count == 1)
    }

    @Test(arguments: [
        ("E: 1369413636.405673 0003 0000\n", "bad event"),
        ("E: 13694x3636.405673 0003 0000 1\n", "bad timestamp"),
        ("E: 1.0000001 0003 0000 1\n", "bad timestamp"),
        ("E: 1.00000x 0003 0000 1\n", "bad timestamp"),
        ("E: 1.000000 0003 0000 99999999999\n", "out of range"),
        ("E: 1.000000 0003 0000 1 trailing\n", "unexpected text"),
        ("X: something\n", "unknown line type X:"),
        ("hello world\n", "not an evemu line"),
        ("A: 00 10 5 0 0\n", "minimum 10 above maximum 5"),
        ("A: 00 0 5\n", "bad A: line"),
        ("I: 0003 056a\n", "bad I: line"),
        ("B: 01 zz\n", "bad B: line"),
    ])
    func aMalformedLineIsRefusedWithItsLineNumber(line: String, message: String) throws {
        let lineNumber = Self.header.split(separator: "\n", omittingEmptySubsequences: false).count
        let e = try #require(Self.error(Self.header + line))
        #expect(e.line == lineNumber)
        #expect(e.message.contains(message), "\(e)")
        #expect(e.description.hasPrefix("test.events:\(lineNumber): "))
    }

    @Test func aDescriptionLineAfterTheEventsIsRefused() throws {
        let e = try #require(Self.error(Self.header + "E: 1.000000 0000 0000 0\nA: 00 0 1 0 0\n"))
        #expect(e.message == "device description line after the first event")
    }

    @Test func windowsLineEndingsAreAccepted() throws {
        let (device, events) = try Self.read(Self.header.replacingOccurrences("\n", "\r\n") + "E: 1.000000 0000 0000 0\r\n")
        #expect(device?.name == "Test Pen")
        #expect(events.count == 1)
    }

    @Test func everyBundledDescriptionParsesAsAPenOrAPad() throws {
        for name in ["Genius_EasyPen_i405X", "PTK-540WL", "Wacom_Bamboo_16FG_4x5_Pen", "Wacom_Bamboo_2FG_4x5_Pen", "Wacom_Bamboo_One",
                     "Wacom_Cintiq_24HD_touch_Pad", "Wacom_Cintiq_24HD_touch_Pen", "Wacom_ISDv4_90", "Wacom_ISDv4_E6_Pen",
                     "Wacom_Intuos3_4x6_Pen", "Wacom_Intuos4_6x9_Pen", "Wacom_Intuos4_WL_Pen", "Wacom_Intuos5_M_Pen",
                     "Wacom_Intuos5_S_Pen", "Wacom_Intuos5_touch_M_Pen"] {
            let file = Fixtures.path("desc-only/\(name).desc")
            let d = try EvemuReader.description(of: readFile(file), file: file)
            #expect(d.kind != nil, "\(name)")
            #expect(d.name.isEmpty == false)
        }
        let pad = try EvemuReader.description(of: readFile(Fixtures.path("desc-only/Wacom_Cintiq_24HD_touch_Pad.desc")), file: "pad")
        #expect(pad.kind == .pad)
    }

    @Test func aPenDisplaysRecordingSaysItsSizeAndThatItDrawsOnAScreen() throws {
        // Cintiq 12WX: a 12.1" 1280x800 display, 261x163 mm visible; the digitizer reaches a little past it.
        let file = Fixtures.path("Wacom_Cintiq_12WX.events")
        let cintiq = try EvemuReader.description(of: readFile(file), file: file)
        let area = try #require(EvdevTranslator(device: DeviceID(1), description: cintiq).deviceInfo.area)
        #expect(area.direct)
        #expect(abs(area.widthMM! - 265.1) < 0.01 && abs(area.heightMM! - 167.2) < 0.01)
        #expect(area.bustype == 0x03 && area.vendor == 0x056a)   // USB, Wacom
        // An Intuos is opaque, and this header gives no resolution: no size.
        let intuosFile = Fixtures.path("Wacom_Intuos4_6x9.desc")
        let intuos = try EvemuReader.description(of: readFile(intuosFile), file: intuosFile)
        #expect(intuos.penArea?.widthMM == nil && intuos.penArea?.direct == false)
        // A pad has no surface to place.
        let padFile = Fixtures.path("Wacom_Cintiq_13HD_touch_Pad.events")
        let pad = try EvemuReader.description(of: readFile(padFile), file: padFile)
        #expect(EvdevTranslator(device: DeviceID(2), description: pad).deviceInfo.area == nil)
    }

    @Test func aMissingFileNamesThePathAndTheReason() {
        #expect(throws: SystemCallError.self) { try readFile("/nonexistent/recording.events") }
        do {
            _ = try readFile("/nonexistent/recording.events")
        } catch {
            #expect(error.description == "/nonexistent/recording.events: open failed: No such file or directory")
        }
    }
}

@Suite("libevdev agrees with the engine's event codes")
struct EvdevCodeNamesTests {
    @Test(arguments: [
        (EV.key, BTN.stylus, "BTN_STYLUS"), (EV.key, BTN.stylus2, "BTN_STYLUS2"), (EV.key, BTN.stylus3, "BTN_STYLUS3"),
        (EV.key, BTN.touch, "BTN_TOUCH"), (EV.key, BTN.toolPen, "BTN_TOOL_PEN"), (EV.key, BTN.toolRubber, "BTN_TOOL_RUBBER"),
        (EV.key, BTN.toolBrush, "BTN_TOOL_BRUSH"), (EV.key, BTN.toolPencil, "BTN_TOOL_PENCIL"),
        (EV.key, BTN.toolAirbrush, "BTN_TOOL_AIRBRUSH"), (EV.key, BTN.toolMouse, "BTN_TOOL_MOUSE"), (EV.key, BTN.toolLens, "BTN_TOOL_LENS"),
        (EV.key, BTN.n0, "BTN_0"), (EV.key, BTN.n9, "BTN_9"), (EV.key, BTN.a, "BTN_A"), (EV.key, BTN.z, "BTN_Z"),
        (EV.key, BTN.base, "BTN_BASE"), (EV.key, BTN.base6, "BTN_BASE6"), (EV.key, BTN.left, "BTN_LEFT"), (EV.key, BTN.task, "BTN_TASK"),
        (EV.abs, ABS.x, "ABS_X"), (EV.abs, ABS.y, "ABS_Y"), (EV.abs, ABS.pressure, "ABS_PRESSURE"), (EV.abs, ABS.distance, "ABS_DISTANCE"),
        (EV.abs, ABS.tiltX, "ABS_TILT_X"), (EV.abs, ABS.tiltY, "ABS_TILT_Y"), (EV.msc, MSC.serial, "MSC_SERIAL"),
        (EV.syn, SYN.report, "SYN_REPORT"), (EV.syn, SYN.dropped, "SYN_DROPPED"),
    ] as [(UInt16, UInt16, String)])
    func codeMatchesLibevdev(type: UInt16, code: UInt16, name: String) {
        #expect(EvdevNames.code(type: type, name: name) == code)
    }

    @Test func sideButtonNamesMatchLibevdev() {
        for button in SideButton.allCases {
            #expect(EvdevNames.name(type: EV.key, code: button.evdevCode) == button.evdevName)
        }
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
