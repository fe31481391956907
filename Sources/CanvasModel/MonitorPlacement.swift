// SPDX-License-Identifier: MIT
/// What the daemon says about a pen's surface (status `input.devices`).
public struct PenSurface: Equatable, Sendable {
    public var widthMM: Double?
    public var heightMM: Double?
    /// A pen display: the pen draws on a screen.
    public var direct: Bool
    /// `usb`, `bluetooth`, `i2c` …, and the USB vendor id, where the daemon says.
    public var bus: String?
    public var vendor: Int?

    public init(widthMM: Double?, heightMM: Double?, direct: Bool, bus: String? = nil, vendor: Int? = nil) {
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.direct = direct
        self.bus = bus
        self.vendor = vendor
    }

    /// Built into the machine (a laptop's or tablet PC's own panel), not plugged in.
    var builtIn: Bool { ["i2c", "spi", "host"].contains(bus ?? "") }
    static let wacom = 0x056a
}

/// A monitor as GDK reports it: logical pixels on the desktop, millimetres
/// from its EDID (0 when unknown), the connector's name where there is one.
public struct MonitorShape: Equatable, Sendable {
    public var connector: String?
    /// The EDID's maker (a PNP id: WAC for Wacom), where GDK knows it.
    public var manufacturer: String?
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var widthMM: Int
    public var heightMM: Int

    public init(connector: String?, manufacturer: String? = nil, x: Int, y: Int, width: Int, height: Int, widthMM: Int, heightMM: Int) {
        self.connector = connector
        self.manufacturer = manufacturer
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.widthMM = widthMM
        self.heightMM = heightMM
    }

    public var name: String { connector ?? "\(width)x\(height)+\(x)+\(y)" }

    /// A laptop's own panel, by its connector's name.
    var builtIn: Bool? { connector.map { c in ["eDP", "LVDS", "DSI"].contains { c.hasPrefix($0) } } }

    /// Made by Wacom: GDK on X11 gives the EDID's PNP id (`WAC`); a Wayland
    /// compositor's `wl_output.make` may spell the maker's name instead
    /// (wlroots: "Wacom Tech").
    var madeByWacom: Bool { manufacturer.map { $0 == "WAC" || $0.lowercased().hasPrefix("wacom") } ?? false }
}

/// Which monitors the canvas covers, as the user asked (`--monitor`).
public enum MonitorRequest: Equatable, Sendable {
    /// Where the tablet maps to (the default): a pen display's own monitor, else the whole desktop.
    case auto
    /// Every monitor: the desktop as one surface.
    case all
    /// GDK's order, from 0.
    case index(Int)
    /// A connector's name, as `xrandr` or the desktop's display settings show it (HDMI-1, eDP-1).
    case connector(String)

    /// `auto`, `all`, a number or a connector's name.
    public init(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "all": self = .all
        default:
            if let n = Int(argument), n >= 0 { self = .index(n) } else { self = .connector(argument) }
        }
    }
}

/// The monitors a canvas covers and the desktop rectangle (logical pixels)
/// that the tablet's normalized surface maps onto: a point at (x, y) lies at
/// (area.x + x·area.width, area.y + y·area.height) on the desktop.
public struct MonitorPlacement: Equatable, Sendable {
    /// Indices into the monitor list, in its order.
    public var monitors: [Int]
    public var areaX: Int
    public var areaY: Int
    public var areaWidth: Int
    public var areaHeight: Int
    /// Why these monitors, for the log and for a user who expected others.
    public var reason: String

    /// Where ink lands in the window that covers monitor `m`.
    public func geometry(on m: MonitorShape) -> InkGeometry {
        InkGeometry(width: Double(areaWidth), height: Double(areaHeight), originX: Double(m.x - areaX), originY: Double(m.y - areaY))
    }

    /// A pen display's size matches a monitor when both sides are within this
    /// share of the monitor's (EDIDs round to centimetres; bezels and
    /// active areas differ by a few millimetres).
    public static let sizeTolerance = 0.12

    /// The placement for `request`, given the pens the daemon reports and the monitors GDK reports.
    /// An explicit monitor that does not exist falls back to `auto`, and the reason says so.
    public static func choose(_ request: MonitorRequest, pens: [PenSurface], monitors: [MonitorShape]) -> MonitorPlacement? {
        guard !monitors.isEmpty else { return nil }
        func only(_ i: Int, _ why: String) -> MonitorPlacement {
            let m = monitors[i]
            return MonitorPlacement(monitors: [i], areaX: m.x, areaY: m.y, areaWidth: m.width, areaHeight: m.height,
                                    reason: "monitor \(i) (\(m.name)): \(why)")
        }
        func everything(_ why: String) -> MonitorPlacement {
            if monitors.count == 1 { return only(0, "the only monitor") }
            let x0 = monitors.map(\.x).min()!, y0 = monitors.map(\.y).min()!
            let x1 = monitors.map { $0.x + $0.width }.max()!, y1 = monitors.map { $0.y + $0.height }.max()!
            return MonitorPlacement(monitors: Array(monitors.indices), areaX: x0, areaY: y0, areaWidth: x1 - x0, areaHeight: y1 - y0,
                                    reason: "all \(monitors.count) monitors, \(x1 - x0)x\(y1 - y0): \(why)")
        }
        var fallback = ""
        switch request {
        case .all:
            return everything("asked for (--monitor all)")
        case .index(let n):
            if n < monitors.count { return only(n, "asked for (--monitor \(n))") }
            fallback = "there is no monitor \(n) (\(monitors.count) connected); "
        case .connector(let name):
            if let i = monitors.firstIndex(where: { $0.connector == name }) { return only(i, "asked for (--monitor \(name))") }
            let names = monitors.compactMap(\.connector)
            fallback = "no monitor is connected to \(name) (\(names.isEmpty ? "no connector names" : names.joined(separator: ", "))); "
        case .auto:
            break
        }
        if monitors.count == 1 { return only(0, fallback + "the only monitor") }
        // A pen display maps to its own screen: the monitor of about its size;
        // among several of that size, a Wacom pen prefers a monitor whose EDID
        // says Wacom, and a pen built into the machine its built-in panel (a
        // plugged-in one any other).
        for pen in pens where pen.direct {
            guard let w = pen.widthMM, let h = pen.heightMM, w > 0, h > 0 else { continue }
            let candidates = monitors.indices.compactMap { i -> (index: Int, rank: Int, off: Double)? in
                let m = monitors[i]
                guard m.widthMM > 0, m.heightMM > 0 else { return nil }
                func off(_ a: Double, _ b: Double) -> Double { max(abs(a - Double(m.widthMM)) / Double(m.widthMM), abs(b - Double(m.heightMM)) / Double(m.heightMM)) }
                let o = min(off(w, h), off(h, w))   // a display turned to portrait reports its sides swapped
                guard o <= sizeTolerance else { return nil }
                let maker = pen.vendor == PenSurface.wacom && m.madeByWacom ? 0 : 1
                let place = m.builtIn.map { $0 == pen.builtIn ? 0 : 1 } ?? 0
                return (i, maker * 2 + place, o)
            }.sorted { ($0.rank, $0.off) < ($1.rank, $1.off) }
            if let best = candidates.first {
                let m = monitors[best.index]
                var why = fallback + "the pen display's \(Int(w.rounded()))x\(Int(h.rounded())) mm matches its \(m.widthMM)x\(m.heightMM) mm"
                let alike = candidates.dropFirst().filter { $0.rank == best.rank }
                if !alike.isEmpty {
                    why += "; so does \(alike.map { "monitor \($0.index) (\(monitors[$0.index].name))" }.joined(separator: ", ")): if the canvas is on the wrong one, choose with --monitor"
                }
                return only(best.index, why)
            }
            fallback += "no monitor is the size of the pen display (\(Int(w.rounded()))x\(Int(h.rounded())) mm); "
        }
        if pens.contains(where: \.direct) {
            return everything(fallback + "where a pen display is mapped when nothing maps it (choose with --monitor)")
        }
        return everything(fallback + (pens.isEmpty ? "no pen reported" : "a tablet that is not a display maps to the whole desktop"))
    }
}
