// SPDX-License-Identifier: MIT
// The canvas's own mouse, touchpad and touchscreen strokes on their way to the
// daemon (`draw`), as stylus-canvas's PointerStream sends them: points in the
// daemon's space, one request out at a time, and the moves that pile up
// meanwhile sent as one. Pure: pointerInput.js feeds it Clutter's events.

// The daemon's reserved device ids of the two sources (docs/PROTOCOL.md, `draw`):
// the live strokes are kept under them, beside the pens' own.
export const SOURCE_DEVICES = {pointer: 4294967294, touch: 4294967295};
// What one `draw` request carries at most.
export const MAX_DRAW_POINTS = 1024;
// Without pressure from the device the stroke is the style's width exactly.
export const POINTER_PRESSURE = 1;
// Clutter's input device types of a tablet's tools: the daemon's pen stream
// draws those, so the canvas never draws them twice.
export const TABLET_DEVICE_TYPES = ['TABLET_DEVICE', 'PEN_DEVICE', 'ERASER_DEVICE', 'CURSOR_DEVICE'];

// Whether an event comes from a tablet tool: by the source device's type name
// (Clutter.InputDeviceType's key), a tablet tool attached to the event, or a
// device the daemon made (its clones are named "… (stylusd)").
export function fromTablet(typeName, hasTool, deviceName) {
    return TABLET_DEVICE_TYPES.includes(typeName) || hasTool || /\(stylusd\)/i.test(deviceName ?? '');
}

// A pixel of a monitor's canvas (relative to the monitor) in the daemon's
// space: InkLayers.pixel inverted, x = (window x + origin x) / area width.
export function daemonPoint(px, py, geometry) {
    return [(px + geometry.x) / geometry.width, (py + geometry.y) / geometry.height];
}

// The point as the live stroke draws it: on the canvas, as the daemon clamps it.
export function livePoint([x, y]) {
    return {x: Math.min(Math.max(x, 0), 1), y: Math.min(Math.max(y, 0), 1), pressure: POINTER_PRESSURE};
}

// Whether a point (daemon space) lies on one of `palette-regions`' regions.
export function onRegions([x, y], regions) {
    return regions.some(r => x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height);
}

// The requests of the strokes, in order: `send(fields, done)` sends one, and
// calls done() when the daemon answered (or refused); until then what comes
// waits, consecutive moves of a source joined up to MAX_DRAW_POINTS.
export class DrawStream {
    constructor(send) {
        this.send = send;
        this.queue = [];
        this.out = false;
    }

    // `points`: [[x, y], …] in the daemon's space; `aspect` with a down.
    push(source, phase, points, aspect) {
        const last = this.queue[this.queue.length - 1];
        if (phase === 'move' && last?.phase === 'move' && last.source === source &&
            last.points.length + points.length <= MAX_DRAW_POINTS) {
            last.points.push(...points);
        } else {
            const request = {source, phase, points: [...points]};
            if (aspect !== undefined)
                request.aspect = aspect;
            this.queue.push(request);
        }
        this.next();
    }

    // `callback` once the daemon answered every request pushed so far.
    after(callback) {
        this.queue.push({callback});
        this.next();
    }

    next() {
        while (!this.out && this.queue[0]?.callback)
            this.queue.shift().callback();
        if (this.out || this.queue.length === 0)
            return;
        this.out = true;
        const request = this.queue.shift();
        this.send(request, () => {
            this.out = false;
            this.next();
        });
    }

    // The daemon went away: what waits would draw into a daemon that knows no `down` of it.
    reset() {
        this.queue = [];
        this.out = false;
    }
}
