// SPDX-License-Identifier: MIT
import StylusCore

/// `status` written by hand, byte for byte what `ProtocolV1.encoder` writes
/// (sorted keys, absent optionals left out, slashes as they are).
///
/// Why: the daemon encodes a `status` whenever what it reports changed,
/// which while a pen draws is at nearly every request (the point count
/// moves), and after every reload. Through JSONEncoder that was the largest
/// part of the loop's work in the emulated test guest, under a flood of
/// reloads and without one (docs/SECURITY.md, "Blocking requests under a
/// flood"). `StatusJSONTests` checks it against JSONEncoder.
extension StatusResult {
    public var json: [UInt8] {
        var w = JSONWriter()
        w.object {
            $0.key("canvas")
            $0.object { o in
                if let background = canvas.background { o.key("background"); o.string(background) }
                o.key("full"); o.bool(canvas.full)
                o.key("has_content"); o.bool(canvas.hasContent)
                if let indicator = canvas.indicator { o.key("indicator"); o.string(indicator) }
                if let keys = canvas.keys {
                    o.key("keys")
                    o.array(keys) { a, entry in
                        a.object { k in
                            k.key("action"); k.string(entry.action)
                            k.key("key"); k.string(entry.key)
                        }
                    }
                }
                o.key("point_count"); o.int(canvas.pointCount)
                if let pointer = canvas.pointer { o.key("pointer"); o.string(pointer) }
                o.key("state"); o.string(canvas.state)
                o.key("stroke_count"); o.int(canvas.strokeCount)
            }
            if let changed { $0.key("changed"); $0.bool(changed) }
            $0.key("config")
            $0.object { o in
                if let bindings = config.bindings {
                    o.key("bindings")
                    o.array(bindings) { a, binding in
                        a.object { b in
                            b.key("action"); b.string(binding.action)
                            b.key("button"); b.string(binding.button)
                            if let pen = binding.pen { b.key("pen"); b.string(pen) }
                            if let unavailable = binding.unavailable { b.key("unavailable"); b.string(unavailable) }
                        }
                    }
                }
                o.key("debounce_ms"); o.int(config.debounceMS)
                if let pressure = config.fullSpeedPressure { o.key("full_speed_pressure"); o.double(pressure) }
                o.key("interval_ms"); o.int(config.intervalMS)
                if let preset = config.preset { o.key("preset"); o.string(preset) }
                o.key("transition_ms"); o.int(config.transitionMS)
            }
            $0.key("input")
            $0.object { o in
                o.key("devices")
                o.array(input.devices) { a, device in
                    a.object { d in
                        if let bus = device.bus { d.key("bus"); d.string(bus) }
                        d.key("device"); d.int(device.device)
                        if let direct = device.direct { d.key("direct"); d.bool(direct) }
                        if let height = device.heightMM { d.key("height_mm"); d.double(height) }
                        d.key("kind"); d.string(device.kind)
                        d.key("name"); d.string(device.name)
                        if let vendor = device.vendor { d.key("vendor"); d.int(vendor) }
                        if let width = device.widthMM { d.key("width_mm"); d.double(width) }
                    }
                }
                o.key("mode"); o.string(input.mode)
                if let reason = input.reason { o.key("reason"); o.string(reason) }
            }
            if let output {
                $0.key("output")
                $0.object { o in
                    if let captures = output.capturesPen { o.key("captures_pen"); o.bool(captures) }
                    o.key("mode"); o.string(output.mode)
                    o.key("reason"); o.string(output.reason)
                    o.key("requested"); o.string(output.requested)
                    o.key("waiting")
                    o.array(output.waiting) { a, node in a.string(node) }
                }
            }
            if let overlay {
                $0.key("overlay")
                $0.object { o in
                    o.key("backend"); o.string(overlay.backend)
                    o.key("outputs"); o.int(overlay.outputs)
                    if let width = overlay.width, let height = overlay.height {
                        o.key("width"); o.int(width)
                        o.key("height"); o.int(height)
                    }
                    if let variant = overlay.variant { o.key("variant"); o.string(variant) }
                    if let shell = overlay.shell { o.key("shell"); o.string(shell) }
                }
            }
            $0.key("precision")
            $0.object { o in
                o.key("active"); o.bool(precision.active)
                o.key("enabled"); o.bool(precision.enabled)
            }
            $0.key("protocol"); $0.int(protocolVersion)
            if let reason { $0.key("reason"); $0.string(reason) }
            if let tool {
                $0.key("tool")
                $0.object { o in
                    o.key("color"); o.string(tool.color)
                    if let colors = tool.colors {
                        o.key("colors")
                        o.array(colors) { a, c in a.string(c) }
                    }
                    if let palette = tool.palette { o.key("palette"); o.bool(palette) }
                    if let pen = tool.pen { o.key("pen"); o.string(pen) }
                    o.key("tool"); o.string(tool.tool)
                    o.key("width"); o.double(tool.width)
                }
            }
        }
        return w.bytes
    }
}

extension Response.EncodedResult {
    /// A `status`, written by hand (`StatusResult.json`) instead of through JSONEncoder.
    public init(status: StatusResult) {
        bytes = status.json
    }
}
