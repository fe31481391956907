// SPDX-License-Identifier: MIT
import CWayland
import CanvasModel
import StylusCore

/// The mouse, touchpad and touchscreen on the Wayland canvases (layer surfaces
/// or toplevels), from the seat's wl_pointer and wl_touch, as X11PointerInput
/// does on X11: the left button draws; one finger draws, a second ends the
/// stroke without drawing it; pressure is DrawRequest's constant, since neither
/// device reports one. The pen never arrives here: see WaylandPointerInput+Tablet.
@MainActor
final class WaylandPointerInput {
    unowned let backend: WaylandBackend
    let strokes = PointerStrokes()
    private var pointer: OpaquePointer?
    private var touch: OpaquePointer?
    /// The canvas the pointer is over, and where on it in surface-local logical pixels.
    private weak var focus: WaylandCanvas?
    private var at = (x: 0.0, y: 0.0)
    /// The canvas a left-button stroke is drawn on (the compositor's implicit grab keeps the focus there).
    private weak var pressed: WaylandCanvas?
    /// Every finger down: the canvas it landed on and its last place there (an up has none of its own).
    private var fingers: [Int32: (canvas: WaylandCanvas?, x: Double, y: Double)] = [:]
    private var drawingFinger: Int32?
    /// tablet-v2's manager and the seat's tablet seat, when the compositor offers them.
    var tabletManager: OpaquePointer?
    var tabletSeat: OpaquePointer?
    /// The log has said whether the pen comes as tablet events.
    var toldTablets = false

    init(backend: WaylandBackend) {
        self.backend = backend
    }

    private var owner: CanvasOverlay? { backend.owner as? CanvasOverlay }

    /// The seat's devices came or went: a wl_pointer and a wl_touch while it has them.
    func seatCapabilities(_ seat: OpaquePointer, _ capabilities: UInt32) {
        let data = Unmanaged.passUnretained(self).toOpaque()
        let hasPointer = capabilities & UInt32(WL_SEAT_CAPABILITY_POINTER.rawValue) != 0
        if hasPointer, pointer == nil {
            pointer = wl_seat_get_pointer(seat)
            wl_pointer_add_listener(pointer, Self.pointerListener, data)
        } else if !hasPointer, let pointer {
            if wl_proxy_get_version(pointer) >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
            self.pointer = nil
            focus = nil
            pressed = nil
        }
        let hasTouch = capabilities & UInt32(WL_SEAT_CAPABILITY_TOUCH.rawValue) != 0
        if hasTouch, touch == nil {
            touch = wl_seat_get_touch(seat)
            wl_touch_add_listener(touch, Self.touchListener, data)
        } else if !hasTouch, let touch {
            if wl_proxy_get_version(touch) >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) }
            self.touch = nil
            touchCancelled()
        }
    }

    /// `[canvas] pointer` as the daemon last said: draw (the default) or pass.
    var draws: Bool { strokes.draws }

    /// Asks the daemon for `[canvas] pointer` at each opening; `changed` runs when it changed.
    func refreshSetting(owner: CanvasOverlay, changed: @escaping @MainActor () -> Void) {
        tellTablets(owner)
        strokes.refreshSetting(owner: owner, changed: changed)
    }

    /// The canvas of a wl_surface the compositor names (as bits: the pointer crosses to the main actor).
    private func canvas(_ surface: UInt) -> WaylandCanvas? {
        guard surface != 0, let owner else { return nil }
        return owner.windows.lazy.compactMap { $0 as? WaylandCanvas }.first { UInt(bitPattern: $0.surface) == surface }
    }

    // MARK: The pointer

    private static let pointerListener: UnsafeMutablePointer<wl_pointer_listener> = allocate({
        var l = wl_pointer_listener()
        l.enter = { data, _, _, surface, x, y in
            let surface = UInt(bitPattern: surface)
            onMain(data, WaylandPointerInput.self) { me in
                me.focus = me.canvas(surface)
                me.at = (fixed(x), fixed(y))
            }
        }
        l.leave = { data, _, _, _ in onMain(data, WaylandPointerInput.self) { $0.pointerLeft() } }
        l.motion = { data, _, _, x, y in onMain(data, WaylandPointerInput.self) { $0.pointerMoved(fixed(x), fixed(y)) } }
        l.button = { data, _, _, _, button, state in
            onMain(data, WaylandPointerInput.self) { $0.button(button, down: state == UInt32(WL_POINTER_BUTTON_STATE_PRESSED.rawValue)) }
        }
        l.axis = { _, _, _, _, _ in }
        l.frame = { _, _ in }
        l.axis_source = { _, _, _ in }
        l.axis_stop = { _, _, _, _ in }
        l.axis_discrete = { _, _, _, _ in }
        l.axis_value120 = { _, _, _, _ in }
        return l
    }())

    /// linux/input-event-codes.h's BTN_LEFT.
    private static let leftButton: UInt32 = 0x110

    private func button(_ button: UInt32, down: Bool) {
        guard button == Self.leftButton else { return }
        if down {
            guard draws, let focus, owner?.drawsWithPointer == true else { return }
            pressed = focus
            stroke(.pointer, .down, on: focus, at.x, at.y)
        } else if let canvas = pressed {
            pressed = nil
            stroke(.pointer, .up, on: canvas, at.x, at.y)
        }
    }

    private func pointerMoved(_ x: Double, _ y: Double) {
        at = (x, y)
        if let pressed { stroke(.pointer, .move, on: pressed, x, y) }
    }

    /// Off the canvas (its surface went, a minimize): a stroke under way ends where it was.
    private func pointerLeft() {
        focus = nil
        guard let canvas = pressed else { return }
        pressed = nil
        stroke(.pointer, .up, on: canvas, at.x, at.y)
    }

    // MARK: Touch

    private static let touchListener: UnsafeMutablePointer<wl_touch_listener> = allocate({
        var l = wl_touch_listener()
        l.down = { data, _, _, _, surface, id, x, y in
            let surface = UInt(bitPattern: surface)
            onMain(data, WaylandPointerInput.self) { $0.fingerDown(id, on: surface, fixed(x), fixed(y)) }
        }
        l.up = { data, _, _, _, id in onMain(data, WaylandPointerInput.self) { $0.fingerUp(id) } }
        l.motion = { data, _, _, id, x, y in onMain(data, WaylandPointerInput.self) { $0.fingerMoved(id, fixed(x), fixed(y)) } }
        l.frame = { _, _ in }
        l.cancel = { data, _ in onMain(data, WaylandPointerInput.self) { $0.touchCancelled() } }
        l.shape = { _, _, _, _, _ in }
        l.orientation = { _, _, _, _ in }
        return l
    }())

    /// The first finger draws; a second while it does throws its stroke away, and nothing
    /// draws again until every finger has lifted (a pinch or a palm is no stroke).
    private func fingerDown(_ id: Int32, on surface: UInt, _ x: Double, _ y: Double) {
        let canvas = canvas(surface)
        fingers[id] = (canvas, x, y)
        if fingers.count == 1 {
            guard draws, let canvas, owner?.drawsWithPointer == true else { return }
            drawingFinger = id
            stroke(.touch, .down, on: canvas, x, y)
        } else if drawingFinger != nil {
            cancelTouchStroke()
        }
    }

    private func fingerMoved(_ id: Int32, _ x: Double, _ y: Double) {
        guard let finger = fingers[id] else { return }
        fingers[id] = (finger.canvas, x, y)
        if drawingFinger == id, let canvas = finger.canvas { stroke(.touch, .move, on: canvas, x, y) }
    }

    private func fingerUp(_ id: Int32) {
        guard let finger = fingers.removeValue(forKey: id), drawingFinger == id else { return }
        drawingFinger = nil
        if let canvas = finger.canvas { stroke(.touch, .up, on: canvas, finger.x, finger.y) }
    }

    /// The compositor took the touches over (a gesture of its own): the stroke is thrown away.
    private func touchCancelled() {
        if drawingFinger != nil { cancelTouchStroke() }
        fingers.removeAll()
    }

    private func cancelTouchStroke() {
        drawingFinger = nil
        if let owner { strokes.cancel(.touch, owner: owner) }
    }

    /// A point to the daemon and, off the palette, drawn live at once.
    private func stroke(_ source: StrokeSource, _ phase: DrawRequest.Phase, on canvas: WaylandCanvas, _ x: Double, _ y: Double) {
        guard let owner else { return }
        strokes.send(source, phase, canvas.inkPoint(x: x, y: y), geometry: canvas.layers.geometry, owner: owner)
    }
}

/// A wl_fixed_t (24.8 fixed point) as a Double.
private func fixed(_ value: Int32) -> Double { Double(value) / 256 }
