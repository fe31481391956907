// SPDX-License-Identifier: MIT
import Testing
@testable import CanvasModel

/// A laptop panel (eDP-1, 1920x1080, 344x194 mm) with a Cintiq 13HD
/// (HDMI-1, 1920x1080, 294x165 mm) to its right, and a third monitor below.
private let laptop = MonitorShape(connector: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, widthMM: 344, heightMM: 194)
private let cintiq = MonitorShape(connector: "HDMI-1", x: 1920, y: 0, width: 1920, height: 1080, widthMM: 294, heightMM: 165)
private let below = MonitorShape(connector: "DP-2", x: 0, y: 1080, width: 1280, height: 1024, widthMM: 0, heightMM: 0)
private let cintiqPen = PenSurface(widthMM: 293.8, heightMM: 165.2, direct: true)
private func xy(_ p: (x: Double, y: Double)) -> [Double] { [p.x, p.y] }
private let intuos = PenSurface(widthMM: 223.5, heightMM: 139.7, direct: false)

@Test func withOneMonitorTheCanvasCoversItWhateverThePen() {
    for pens in [[], [intuos], [cintiqPen]] {
        let p = MonitorPlacement.choose(.auto, pens: pens, monitors: [laptop])!
        #expect(p.monitors == [0])
        #expect(xy(p.geometry(on: laptop).pixel(InkPoint(x: 0.5, y: 0.25, pressure: 1))) == [960, 270])
    }
}

@Test func aPenDisplayCoversTheMonitorOfItsSize() {
    let p = MonitorPlacement.choose(.auto, pens: [cintiqPen], monitors: [laptop, cintiq, below])!
    #expect(p.monitors == [1])
    #expect([p.areaX, p.areaY, p.areaWidth, p.areaHeight] == [1920, 0, 1920, 1080])
    // Drawn in that monitor's own window: the window's pixels start at the monitor's corner.
    #expect(xy(p.geometry(on: cintiq).pixel(InkPoint(x: 0.5, y: 0.5, pressure: 1))) == [960, 540])
    #expect(p.reason.contains("HDMI-1"))
}

@Test func aPenDisplayTurnedToPortraitStillFindsItsMonitor() {
    let portrait = MonitorShape(connector: "HDMI-1", x: 1920, y: 0, width: 1080, height: 1920, widthMM: 165, heightMM: 294)
    #expect(MonitorPlacement.choose(.auto, pens: [cintiqPen], monitors: [laptop, portrait])?.monitors == [1])
}

@Test func anOpaqueTabletMapsToTheWholeDesktop() {
    let p = MonitorPlacement.choose(.auto, pens: [intuos], monitors: [laptop, cintiq, below])!
    #expect(p.monitors == [0, 1, 2])
    #expect([p.areaX, p.areaY, p.areaWidth, p.areaHeight] == [0, 0, 3840, 2104])
    // The desktop's middle lies on the Cintiq's left edge, half-way down the desktop.
    let middle = InkPoint(x: 0.5, y: 0.5, pressure: 1)
    #expect(xy(p.geometry(on: cintiq).pixel(middle)) == [0, 1052])
    #expect(xy(p.geometry(on: laptop).pixel(middle)) == [1920, 1052])
    #expect(xy(p.geometry(on: below).pixel(InkPoint(x: 0, y: 1, pressure: 1))) == [0, 1024])
    // One width across monitors: scaled by the desktop's width, not each monitor's.
    let a = InkPoint(x: 0.1, y: 0.1, pressure: 1)
    #expect(p.geometry(on: laptop).lineWidth(a, a) == p.geometry(on: cintiq).lineWidth(a, a))
}

@Test func aPenDisplayOfNoMonitorsSizeFallsBackToTheWholeDesktopAndSaysWhy() {
    let odd = PenSurface(widthMM: 600, heightMM: 340, direct: true)
    let p = MonitorPlacement.choose(.auto, pens: [odd], monitors: [laptop, cintiq])!
    #expect(p.monitors == [0, 1])
    #expect(p.reason.contains("600x340 mm"))
    #expect(p.reason.contains("--monitor"))
}

@Test func aPenDisplayWithoutASizeOrNoPenCoversEverything() {
    #expect(MonitorPlacement.choose(.auto, pens: [PenSurface(widthMM: nil, heightMM: nil, direct: true)], monitors: [laptop, cintiq])?.monitors == [0, 1])
    #expect(MonitorPlacement.choose(.auto, pens: [], monitors: [laptop, cintiq])?.reason.contains("no pen") == true)
}

@Test func theUserChoosesByConnectorIndexOrAll() {
    #expect(MonitorPlacement.choose(.connector("eDP-1"), pens: [cintiqPen], monitors: [laptop, cintiq])?.monitors == [0])
    #expect(MonitorPlacement.choose(.index(1), pens: [intuos], monitors: [laptop, cintiq])?.monitors == [1])
    #expect(MonitorPlacement.choose(.all, pens: [cintiqPen], monitors: [laptop, cintiq])?.monitors == [0, 1])
}

@Test func aChosenMonitorThatIsNotConnectedFallsBackToAutoAndNamesWhatExists() {
    let p = MonitorPlacement.choose(.connector("DP-9"), pens: [cintiqPen], monitors: [laptop, cintiq])!
    #expect(p.monitors == [1])
    #expect(p.reason.contains("no monitor is connected to DP-9 (eDP-1, HDMI-1)"))
    let q = MonitorPlacement.choose(.index(5), pens: [], monitors: [laptop])!
    #expect(q.monitors == [0])
    #expect(q.reason.contains("there is no monitor 5"))
}

@Test func noMonitorsNoPlacement() {
    #expect(MonitorPlacement.choose(.auto, pens: [cintiqPen], monitors: []) == nil)
}

@Test(arguments: [("auto", MonitorRequest.auto), ("all", .all), ("2", .index(2)), ("HDMI-1", .connector("HDMI-1"))])
func monitorArguments(_ text: String, _ request: MonitorRequest) {
    #expect(MonitorRequest(argument: text) == request)
}

/// A Cintiq 16 (345x194 mm, USB, Wacom) beside a 15.6" laptop panel of the same size.
private let panel156 = MonitorShape(connector: "eDP-1", manufacturer: "BOE", x: 0, y: 0, width: 1920, height: 1080, widthMM: 344, heightMM: 194)
private let cintiq16 = MonitorShape(connector: "HDMI-1", manufacturer: "WAC", x: 1920, y: 0, width: 1920, height: 1080, widthMM: 345, heightMM: 194)
private let cintiq16Pen = PenSurface(widthMM: 344.2, heightMM: 193.6, direct: true, bus: "usb", vendor: 0x056a)

@Test func aWacomDisplayTheSizeOfTheLaptopPanelIsFoundByItsMakerNotTheFirstOfThatSize() {
    let p = MonitorPlacement.choose(.auto, pens: [cintiq16Pen], monitors: [panel156, cintiq16])!
    #expect(p.monitors == [1])
}

@Test func onWaylandTheMakersNameFindsTheWacomDisplayAsItsPNPIdDoesOnX11() {
    // Two external monitors of the Cintiq's size: only the maker tells them apart.
    let dell = MonitorShape(connector: "DP-1", manufacturer: "Dell Inc.", x: 0, y: 0, width: 1920, height: 1080, widthMM: 345, heightMM: 194)
    var named = cintiq16
    named.manufacturer = "Wacom Tech"   // wl_output.make as wlroots spells it
    #expect(MonitorPlacement.choose(.auto, pens: [cintiq16Pen], monitors: [dell, named])?.monitors == [1])
    named.manufacturer = "Dell Inc."
    #expect(MonitorPlacement.choose(.auto, pens: [cintiq16Pen], monitors: [dell, named])?.monitors == [0],
            "without the maker, the first of two equal fits")
}

@Test func aPluggedInPenDisplayPrefersAnExternalMonitorAndABuiltInPenTheBuiltInPanel() {
    // Neither monitor's EDID names its maker here: the connection decides.
    let anonymous = MonitorShape(connector: "DP-1", x: 1920, y: 0, width: 1920, height: 1080, widthMM: 345, heightMM: 194)
    let panel = MonitorShape(connector: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, widthMM: 344, heightMM: 194)
    #expect(MonitorPlacement.choose(.auto, pens: [PenSurface(widthMM: 344, heightMM: 194, direct: true, bus: "usb")],
                                    monitors: [panel, anonymous])?.monitors == [1])
    #expect(MonitorPlacement.choose(.auto, pens: [PenSurface(widthMM: 344, heightMM: 194, direct: true, bus: "i2c")],
                                    monitors: [anonymous, panel])?.monitors == [1])
}

@Test func twoMonitorsThatFitEquallyWellAreNamedAndTheUserIsToldHowToChoose() {
    let left = MonitorShape(connector: "DP-1", x: -1920, y: 0, width: 1920, height: 1080, widthMM: 345, heightMM: 194)
    let right = MonitorShape(connector: "DP-2", x: 0, y: 0, width: 1920, height: 1080, widthMM: 345, heightMM: 194)
    let p = MonitorPlacement.choose(.auto, pens: [PenSurface(widthMM: 345, heightMM: 194, direct: true)], monitors: [left, right])!
    #expect(p.monitors == [0])
    #expect(p.reason.contains("so does monitor 1 (DP-2)") && p.reason.contains("--monitor"))
}

@Test func aDesktopReachingIntoNegativeCoordinatesMapsFromItsTopLeftCorner() {
    let left = MonitorShape(connector: "DP-1", x: -1280, y: -200, width: 1280, height: 1024, widthMM: 0, heightMM: 0)
    let p = MonitorPlacement.choose(.auto, pens: [intuos], monitors: [left, laptop])!
    #expect([p.areaX, p.areaY, p.areaWidth, p.areaHeight] == [-1280, -200, 3200, 1280])
    #expect(xy(p.geometry(on: left).pixel(InkPoint(x: 0, y: 0, pressure: 1))) == [0, 0])
    #expect(xy(p.geometry(on: laptop).pixel(InkPoint(x: 1, y: 1, pressure: 1))) == [1920, 1080])
}
