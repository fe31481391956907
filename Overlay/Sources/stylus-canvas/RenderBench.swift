// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `stylus-canvas --render-bench WIDTHxHEIGHT [ROUNDS] < strokes.json`: what
/// the canvas's renderer costs with the drawing on standard input, and whether
/// its shortcuts draw what drawing afresh draws. No display: the layers and a
/// frame's target are image surfaces, as the X11 and Wayland canvases use them.
/// One line per measure on standard output; every redraw after an undo, a redo
/// and a clear taken back is compared with the same strokes drawn into fresh
/// layers, and a difference is an exit status of 1; a bad argument is 64 and
/// strokes it cannot read 65, each with its reason on standard error.
/// bench/export_bench.py and the overlay tests run it.
@MainActor
enum RenderBench {
    static func run(size: String, rounds: String?) -> Int32 {
        let usage = "usage: stylus-canvas --render-bench WIDTHxHEIGHT [ROUNDS 1-10000] < strokes.json"
        guard let (width, height) = RenderPNG.sides(size) else {
            printError("stylus-canvas: --render-bench: the size '\(size)' is not WIDTHxHEIGHT in pixels, each side \(ExportFormat.sideRange.lowerBound)-\(ExportFormat.sideRange.upperBound) (e.g. 1920x1080)\n\(usage)")
            return 64
        }
        guard let rounds = Int(rounds ?? "30"), (1...10_000).contains(rounds) else {
            printError("stylus-canvas: --render-bench: ROUNDS '\(rounds ?? "")' is not a whole number from 1 to 10000\n\(usage)")
            return 64
        }
        guard let strokes = RenderPNG.standardInputStrokes(), strokes.count > 1 else {
            printError("stylus-canvas: --render-bench: the strokes on standard input are neither stylusd's stroke records nor the JSON `strokes` answers with, or fewer than 2")
            return 65
        }
        let geometry = InkGeometry(width: Double(width), height: Double(height))
        let ink = InkLayers(geometry: geometry)
        _ = ink.ensure(width: width, height: height, scale: 1)
        let points = strokes.reduce(0) { $0 + $1.points.count }
        print("drawing: \(strokes.count) strokes, \(points) points, \(width)×\(height)")

        var differences: [String] = []
        var checks = 0
        /// The finished layer against `shown` drawn into fresh layers.
        func check(_ what: String, _ shown: [InkStroke]) {
            checks += 1
            // Drawn stroke by stroke, none of redrawFinished's shortcuts.
            let fresh = InkLayers(geometry: geometry)
            _ = fresh.ensure(width: width, height: height, scale: 1)
            for stroke in shown { fresh.draw(stroke, into: fresh.finished) }
            if let at = firstDifference(ink.finished, fresh.finished) { differences.append("\(what) (first at \(at))") }
            fresh.release()
        }

        let opened = InkLayers(geometry: geometry)
        _ = opened.ensure(width: width, height: height, scale: 1)
        report("open (everything drawn)", [time { opened.redrawFinished(strokes) }])
        opened.release()
        // The layers the rest goes on, drawn as the canvas draws a drawing made while it shows.
        report("a finished stroke drawn in", strokes.map { stroke in time { ink.drawFinished(stroke) } })
        check("drawn one at a time", strokes)

        let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)
        defer { cairo_surface_destroy(target) }
        let hover = [InkPoint(x: 0.5, y: 0.5, pressure: 0)]
        report("frame (clear, both layers, a hover ring)", (0..<rounds).map { _ in
            time {
                let cr = cairo_create(target)!
                cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
                cairo_paint(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
                ink.compose(onto: cr, alpha: 1, hover: hover)
                cairo_destroy(cr)
                cairo_surface_flush(target)
            }
        })

        let undos = min(rounds, strokes.count - 1)
        report("undo, one stroke at a time", (1...undos).map { taken in
            let shown = Array(strokes.dropLast(taken))
            let spent = time { ink.redrawFinished(shown) }
            if taken == 1 || taken == undos || taken % 4 == 0 { check("undo \(taken)", shown) }
            return spent
        })
        report("redo, one stroke at a time", (1...undos).reversed().map { taken in
            let shown = Array(strokes.dropLast(taken - 1))
            let spent = time { ink.redrawFinished(shown) }
            if taken == 1 || taken % 4 == 0 { check("redo to \(undos - taken + 1)", shown) }
            return spent
        })
        report("clear taken back", (0..<min(rounds, 10)).map { _ in
            ink.clearFinished()
            return time { ink.redrawFinished(strokes) }
        })
        check("clear taken back", strokes)
        var erased = strokes
        erased.remove(at: strokes.count / 2)
        report("a stroke in the middle erased whole", [time { ink.redrawFinished(erased) }])
        check("erase in the middle", erased)

        let last = strokes[strokes.count - 1]
        let segments = zip(last.points, last.points.dropFirst()).prefix(rounds)
        report("a live pen segment", segments.map { a, b in time { ink.drawLiveSegment(a, b, last.style) } })

        ink.release()
        if differences.isEmpty {
            print("pixels: identical to a fresh drawing after all \(checks) checked redraws")
            return 0
        }
        print("pixels: DIFFERENT from a fresh drawing after \(differences.joined(separator: ", ")) (\(differences.count) of \(checks) checks)")
        return 1
    }

    private static func time(_ body: () -> Void) -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let seconds = Double(end.tv_sec - start.tv_sec), nanoseconds = Double(end.tv_nsec - start.tv_nsec)
        return seconds * 1000 + nanoseconds / 1_000_000
    }

    private static func report(_ what: String, _ milliseconds: [Double]) {
        let sorted = milliseconds.sorted()
        func at(_ q: Double) -> String {
            let index = Int((Double(sorted.count - 1) * q).rounded(.up))
            let hundredths = Int((sorted[min(sorted.count - 1, index)] * 100).rounded())
            let fraction = hundredths % 100
            return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
        }
        print("\(what): p50 \(at(0.5)) ms, p99 \(at(0.99)) ms, max \(at(1)) ms over \(sorted.count)")
    }

    /// Where the two layers first differ, as "x,y: pixel ≠ pixel"; nil when they are the same.
    private static func firstDifference(_ a: OpaquePointer?, _ b: OpaquePointer?) -> String? {
        guard let a, let b else { return a == nil && b == nil ? nil : "one layer missing" }
        cairo_surface_flush(a)
        cairo_surface_flush(b)
        let width = Int(cairo_image_surface_get_width(a)), height = Int(cairo_image_surface_get_height(a))
        let stride = Int(cairo_image_surface_get_stride(a))
        guard width == Int(cairo_image_surface_get_width(b)), height == Int(cairo_image_surface_get_height(b)),
              stride == Int(cairo_image_surface_get_stride(b)),
              let pa = cairo_image_surface_get_data(a), let pb = cairo_image_surface_get_data(b) else { return "different sizes" }
        guard memcmp(pa, pb, height * stride) != 0 else { return nil }
        let left = UnsafeRawPointer(pa).assumingMemoryBound(to: UInt32.self), right = UnsafeRawPointer(pb).assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            for x in 0..<width where left[y * stride / 4 + x] != right[y * stride / 4 + x] {
                return "\(x),\(y): \(String(left[y * stride / 4 + x], radix: 16)) ≠ \(String(right[y * stride / 4 + x], radix: 16))"
            }
        }
        return nil
    }
}
