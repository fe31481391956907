// SPDX-License-Identifier: MIT
import CLibevdev
import CLibwacom
import CLinux
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// One /dev/input/event* node as the probe found it.
public struct ProbedNode: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable { case pen, pad, other, unreadable }

    public var path: String
    public var name: String
    /// "vvvv:pppp" in hex, as lsusb writes it.
    public var id: String?
    public var kind: Kind
    /// Why the node could not be read, with the fix.
    public var error: String?
    /// For an unreadable node: whether sysfs (readable by anyone) says it is a pen.
    public var looksLikePen: Bool?
    public var pen: PenCapabilities?
    public var pad: PadCapabilities?

    enum CodingKeys: String, CodingKey {
        case path, name, id, kind, error, looksLikePen = "looks_like_pen", pen, pad
    }
}

public struct ProbeReport: Codable, Equatable, Sendable {
    public var nodes: [ProbedNode]
    /// Nil when at least one pen is usable; otherwise why stylusd runs button-only.
    public var buttonOnlyReason: String?

    enum CodingKeys: String, CodingKey {
        case nodes, buttonOnlyReason = "button_only_reason"
    }

    public var pens: [ProbedNode] { nodes.filter { $0.kind == .pen } }
}

public enum Probe {
    static let huionVendor: UInt16 = 0x256c

    /// - Parameter libwacom: look each pen up in libwacom's database. Loading
    ///   the database touches megabytes, so the daemon's start-up check,
    ///   which only needs to know whether a pen exists, leaves it out.
    public static func run(directory: String = "/dev/input", sysfs: String = "/sys/class/input", libwacom: Bool = true) -> ProbeReport {
        guard let dir = opendir(directory) else {
            let reason = errno == ENOENT
                ? "there is no \(directory): this system exposes no input devices (a container, or a VM without input hardware)"
                : "cannot list \(directory): \(String(cString: strerror(errno)))"
            return ProbeReport(nodes: [], buttonOnlyReason: reason)
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("event"), Int(name.dropFirst(5)) != nil { names.append(name) }
        }
        closedir(dir)
        names.sort { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }

        let wacom = libwacom ? libwacom_database_new() : nil
        defer { if let wacom { libwacom_database_destroy(wacom) } }
        // stylusd's own virtual pens (filter mode) are not hardware to report.
        let nodes = names.filter { !(sysfsName(sysfs, $0)?.hasSuffix(LibinputMonitor.cloneNameSuffix) ?? false) }
            .map { probeNode(path: "\(directory)/\($0)", sysfsName: sysfsName(sysfs, $0), wacom: wacom) }
        return ProbeReport(nodes: nodes, buttonOnlyReason: buttonOnlyReason(nodes, directory: directory))
    }

    /// Only the given nodes (`stylusd --device`): the daemon's start-up
    /// check names what is wrong with these, not with the rest of /dev/input.
    public static func run(paths: [String], sysfs: String = "/sys/class/input", libwacom: Bool = true) -> ProbeReport {
        let wacom = libwacom ? libwacom_database_new() : nil
        defer { if let wacom { libwacom_database_destroy(wacom) } }
        let nodes = paths.map { path in
            probeNode(path: path, sysfsName: sysfsName(sysfs, String(path.split(separator: "/").last ?? "")), wacom: wacom)
        }
        return ProbeReport(nodes: nodes, buttonOnlyReason: buttonOnlyReason(given: nodes))
    }

    /// Why none of the given nodes is a usable pen, node by node, in the
    /// words the daemon uses when it cannot use a node.
    static func buttonOnlyReason(given nodes: [ProbedNode]) -> String? {
        if nodes.contains(where: { $0.kind == .pen }) { return nil }
        return nodes.map { node in
            node.kind == .unreadable ? "cannot use \(node.path): \(node.error ?? "unknown error")"
                : "\(node.path) (\(node.name)) is not a tablet pen"
        }.joined(separator: "; ")
    }

    static func buttonOnlyReason(_ nodes: [ProbedNode], directory: String) -> String? {
        if nodes.contains(where: { $0.kind == .pen }) { return nil }
        if nodes.isEmpty { return "there are no \(directory)/event* nodes, so there is no pen" }
        // A pen that cannot be read is the one worth naming, not the keyboard before it.
        let unreadable = nodes.filter { $0.kind == .unreadable }.sorted { ($0.looksLikePen == true) && $1.looksLikePen != true }
        if let first = unreadable.first {
            let more = unreadable.count > 1 ? " (and \(unreadable.count - 1) more unreadable node\(unreadable.count > 2 ? "s" : ""))" : ""
            let what = first.looksLikePen == true ? "is a tablet pen but cannot be opened" : "cannot be opened"
            return "no readable pen: \(first.path) (\(first.name)) \(what): \(first.error ?? "unknown error")\(more)"
        }
        let shown = nodes.prefix(4).map { "\($0.name)" }.joined(separator: ", ")
        return "none of the \(nodes.count) input device\(nodes.count == 1 ? "" : "s") is a tablet pen (\(shown)\(nodes.count > 4 ? ", …" : ""))"
    }

    private static func sysfsName(_ sysfs: String, _ node: String) -> String? {
        guard let bytes = try? readFile("\(sysfs)/\(node)/device/name") else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmingASCIISpaces().split(separator: "\n").first.map(String.init)
    }

    static func probeNode(path: String, sysfsName: String?, wacom: OpaquePointer?) -> ProbedNode {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            var node = ProbedNode(path: path, name: sysfsName ?? "?", kind: .unreadable, error: NodeAccess.explain(errno: errno, path: path))
            node.looksLikePen = NodeAccess.looksLikePen(path)
            return node
        }
        defer { close(fd) }
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else {
            return ProbedNode(path: path, name: sysfsName ?? "?", kind: .unreadable,
                              error: "not an evdev device: \(String(cString: strerror(-rc)))")
        }
        defer { libevdev_free(dev) }
        let description = describe(dev)
        let id = String(format4: description.vendor) + ":" + String(format4: description.product)
        var node = ProbedNode(path: path, name: description.name, id: id, kind: .other)
        switch description.kind {
        case .pen?:
            node.kind = .pen
            node.pen = penCapabilities(description, wacom: wacom)
        case .pad?:
            node.kind = .pad
            node.pad = PadCapabilities(buttons: description.padButtonCodes.count)
        case nil:
            break
        }
        return node
    }

    /// The same facts an evemu header carries, read from a live node.
    public static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        var d = DeviceDescription(name: String(cString: libevdev_get_name(dev)))
        d.bustype = UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev))
        d.vendor = UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev))
        d.product = UInt16(truncatingIfNeeded: libevdev_get_id_product(dev))
        d.version = UInt16(truncatingIfNeeded: libevdev_get_id_version(dev))
        for code in UInt16(0x100)...UInt16(0x14f) where libevdev_has_event_code(dev, UInt32(EV.key), UInt32(code)) != 0 {
            d.enable(type: EV.key, code: code)
        }
        for code in UInt16(0)..<UInt16(ABS.count) where libevdev_has_event_code(dev, UInt32(EV.abs), UInt32(code)) != 0 {
            d.enable(type: EV.abs, code: code)
            if let info = libevdev_get_abs_info(dev, UInt32(code))?.pointee {
                d.absInfo[code] = AbsInfo(minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
            }
        }
        for prop in UInt16(0)..<UInt16(8) where libevdev_has_property(dev, UInt32(prop)) != 0 {
            let byte = Int(prop) / 8
            while d.properties.count <= byte { d.properties.append(0) }
            d.properties[byte] |= 1 << (prop % 8)
        }
        return d
    }

    static func penCapabilities(_ d: DeviceDescription, wacom: OpaquePointer?) -> PenCapabilities {
        var caps = PenCapabilities(
            pressureLevels: d.absInfo[ABS.pressure].map { Int($0.maximum) - Int($0.minimum) + 1 },
            sideButtons: d.sideButtons.map(\.evdevName),
            eraser: d.has(type: EV.key, code: BTN.toolRubber),
            tilt: d.has(type: EV.abs, code: ABS.tiltX) && d.has(type: EV.abs, code: ABS.tiltY),
            distance: d.has(type: EV.abs, code: ABS.distance),
            display: d.has(property: INPUT_PROP.direct),
            notes: [])
        if let wacom, let device = libwacom_new_from_usbid(wacom, Int32(d.vendor), Int32(d.product), nil) {
            defer { libwacom_destroy(device) }
            caps.libwacomModel = String(cString: libwacom_get_name(device))
            var count: Int32 = 0
            if let styli = libwacom_get_supported_styli(device, &count), count > 0 {
                var most = 0
                for i in 0..<Int(count) {
                    if let stylus = libwacom_stylus_get_for_id(wacom, styli[i]) {
                        most = max(most, Int(libwacom_stylus_get_num_buttons(stylus)))
                    }
                }
                caps.libwacomStylusButtons = most
            }
        }
        if d.vendor == huionVendor, d.has(type: EV.key, code: BTN.stylus3), caps.libwacomStylusButtons.map({ $0 < 3 }) ?? true {
            caps.notes.append("advertises BTN_STYLUS3, which Huion tablets do whether or not the pen has a third button")
        }
        if caps.pressureLevels == nil {
            caps.notes.append("reports no pressure: precision mode will treat the tip as fully pressed")
        }
        return caps
    }
}

extension ProbedNode {
    /// One human line per node.
    public var text: String {
        var line = "\(path)  \(name)"
        if let id { line += "  \(id)" }
        switch kind {
        case .unreadable:
            line += "  cannot open: \(error ?? "unknown error")"
        case .other:
            line += "  not a tablet"
        case .pad:
            line += "  pad: \(pad?.buttons ?? 0) buttons"
        case .pen:
            guard let p = pen else { break }
            var facts: [String] = []
            facts.append(p.pressureLevels.map { "\($0) pressure levels" } ?? "no pressure")
            facts.append(p.sideButtons.isEmpty ? "no side buttons" : p.sideButtons.joined(separator: " "))
            if p.eraser { facts.append("eraser") }
            if p.tilt { facts.append("tilt") }
            if p.distance { facts.append("distance") }
            facts.append(p.display ? "pen display" : "external tablet")
            if let model = p.libwacomModel {
                facts.append("libwacom: \(model)" + (p.libwacomStylusButtons.map { ", pens with up to \($0) buttons" } ?? ""))
            }
            line += "  pen: " + facts.joined(separator: ", ")
            for note in p.notes { line += "\n    note: \(note)" }
        }
        return line
    }
}

extension String {
    init(format4 value: UInt16) {
        let hex = String(value, radix: 16)
        let padding = String(repeating: "0", count: Swift.max(0, 4 - hex.count))
        self = padding + hex
    }
}
