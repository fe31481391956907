// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// What a command's answer prints: `status` (and `reload`, which may change
/// anything) the whole summary; a command that changes one part of the state,
/// that part's line (`stylusctl status` shows the rest).
enum StatusPart {
    case all, canvas, precision, output, tool

    init(_ command: ClientCommand) {
        switch command {
        case .toggle, .open, .minimize, .ack, .clear, .undo, .redo, .discard: self = .canvas
        case .tool, .styleStep, .palette: self = .tool
        case .precision: self = .precision
        case .output: self = .output
        default: self = .all
        }
    }
}

func describeStatus(_ r: StatusResult, only part: StatusPart = .all) -> String {
    var lines: [String] = []
    if r.changed == false, let reason = r.reason { lines.append("unchanged: \(reason)") }
    let c = r.canvas
    let canvasLine = "canvas     \(c.state) (\(counted(c.strokeCount, "stroke")), \(counted(c.pointCount, "point"))\(c.full ? ", full" : ""))"
    let precisionLine = "precision  \(r.precision.enabled ? "enabled" : "disabled"), \(r.precision.active ? "active" : "inactive")"
    let toolLine = r.tool.map { "tool       \($0.tool), \($0.color), width \(StyleRequest.describe($0.width))\($0.palette == true ? ", palette shown" : "")" } ?? "tool       unknown (a daemon older than styles: red pen)"
    switch part {
    case .canvas: return (lines + [canvasLine]).joined(separator: "\n")
    case .precision: return (lines + [precisionLine]).joined(separator: "\n")
    case .output: return (lines + [r.output.map(describeOutput) ?? "output     unknown (a daemon older than the output command)"]).joined(separator: "\n")
    case .tool: return (lines + [toolLine]).joined(separator: "\n")
    case .all: break
    }
    lines.append(canvasLine)
    lines.append(toolLine)
    lines.append(precisionLine)
    if r.input.mode == "pen" {
        lines.append("input      pen: " + r.input.devices.map { "\($0.name) [\($0.kind)]" }.joined(separator: ", "))
    } else {
        lines.append("input      button-only" + (r.input.reason.map { ": \($0)" } ?? ""))
    }
    lines.append("config     \(r.config.preset.map { "preset \($0), " } ?? "")interval \(r.config.intervalMS) ms, debounce \(r.config.debounceMS) ms, transition \(r.config.transitionMS) ms")
    for binding in r.config.bindings ?? [] {
        lines.append("binding    \(binding.button) = \(binding.action)" + (binding.pen.map { " (pen \"\($0)\")" } ?? "")
                     + (binding.unavailable.map { " (not available: \($0))" } ?? ""))
    }
    if let o = r.output { lines.append(describeOutput(o)) }
    if let overlay = r.overlay {
        switch overlay.backend {
        case "gnome-extension":
            lines.append("overlay    the GNOME Shell extension stylus-canvas@stylusd\(GnomeExtensionVariant.described(overlay)), "
                         + counted(overlay.outputs, "monitor"))
        case "missing":
            lines.append("overlay    none: GNOME draws the canvas with the extension stylus-canvas@stylusd, which does not run "
                         + "(stylus-canvas's log says why); gnome-extensions enable stylus-canvas@stylusd, then log out and in")
        case let name where OutdatedGnomeExtension(report: name) != nil:
            lines.append(OutdatedGnomeExtension(report: name)!.line)
        default:
            lines.append("overlay    stylus-canvas as \(overlay.backend), \(overlay.outputs) output\(overlay.outputs == 1 ? "" : "s")"
                         + (overlay.backend == "wayland-toplevel" ? " (no layer-shell here: a maximized window, not an overlay)" : ""))
        }
    }
    return lines.joined(separator: "\n")
}

/// "output     observe (requested auto): why", and the nodes a filter waits to grab.
func describeOutput(_ o: StatusResult.OutputInfo) -> String {
    var line = "output     \(o.mode) (requested \(o.requested))"
    // The reason starts with the mode ("observe: …"); said once is enough.
    let reason = o.reason.hasPrefix(o.mode + ": ") ? String(o.reason.dropFirst(o.mode.count + 2)) : o.reason
    if !reason.isEmpty { line += ": " + reason }
    if !o.waiting.isEmpty {
        line += "\n           waiting to grab \(o.waiting.joined(separator: ", ")) (the pen is in proximity or a button is held)"
    }
    return line
}

