// SPDX-License-Identifier: MIT
// The mouse, touchpad and touchscreen on the open canvas (`[canvas] pointer =
// "draw"`), as stylus-canvas's X11PointerInput takes them: the left button
// draws; one finger draws, a second ends the stroke without keeping it
// (`cancel`), and nothing draws again until every finger lifted. Events from a
// tablet's tools are left alone: the daemon's pen stream draws the pen.
import Clutter from 'gi://Clutter';

import {daemonPoint, fromTablet, livePoint, onRegions} from './drawStream.js';

// Clutter.InputDeviceType's key of a value: what drawStream.js's fromTablet names.
function deviceTypeName(device) {
    const type = device?.get_device_type();
    return Object.keys(Clutter.InputDeviceType).find(k => Clutter.InputDeviceType[k] === type) ?? '';
}

export class PointerInput {
    // `owner`: drawing() whether a stroke may begin or go on (open, shown, pointer = draw);
    // regions() the shown palette's regions; send(source, phase, points, aspect) the
    // `draw` request; live(source, point, tip) the point drawn at once (tip false ends
    // the stroke); cancel(source) the live stroke thrown away.
    constructor(owner) {
        this.owner = owner;
        // The canvas a left-button stroke is drawn on.
        this.pressed = null;
        // The finger that draws, and every finger down (by slot).
        this.drawingTouch = null;
        this.touches = new Set();
        this.touchCancelled = false;
        // The sources whose press landed on the palette: the daemon selects, nothing is drawn live.
        this.onPalette = new Set();
    }

    // A monitor's canvas (monitorCanvas.js) whose box hears the events while reactive.
    attach(canvas) {
        const box = canvas.box;
        box.connect('button-press-event', (actor, event) => this.button(canvas, event, 'down'));
        box.connect('motion-event', (actor, event) => this.button(canvas, event, 'move'));
        box.connect('button-release-event', (actor, event) => this.button(canvas, event, 'up'));
        box.connect('touch-event', (actor, event) => this.touch(canvas, event));
    }

    // The canvas minimized: the daemon ended the strokes, the next press starts anew.
    release() {
        this.pressed = null;
        this.drawingTouch = null;
        this.touches.clear();
        this.onPalette.clear();
    }

    fromTablet(event) {
        const device = event.get_source_device?.() ?? event.get_device();
        return fromTablet(deviceTypeName(device), !!event.get_device_tool?.(), device?.get_device_name?.());
    }

    button(canvas, event, phase) {
        // The pen (its own stream draws it), and a touch's pointer emulation (its touch events draw).
        if (this.fromTablet(event) || (event.get_flags() & Clutter.EventFlags.FLAG_POINTER_EMULATED))
            return Clutter.EVENT_PROPAGATE;
        if (phase === 'down') {
            if (event.get_button() !== Clutter.BUTTON_PRIMARY || !this.owner.drawing())
                return Clutter.EVENT_PROPAGATE;
            this.pressed = canvas;
        } else if (this.pressed !== canvas || (phase === 'up' && event.get_button() !== Clutter.BUTTON_PRIMARY)) {
            return Clutter.EVENT_PROPAGATE;
        } else if (phase === 'up') {
            this.pressed = null;
        }
        this.stroke('pointer', phase, canvas, event);
        return Clutter.EVENT_STOP;
    }

    touch(canvas, event) {
        const type = event.type();
        const slot = event.get_event_sequence()?.get_slot?.() ?? 0;
        const T = Clutter.EventType;
        if (type === T.TOUCH_BEGIN) {
            this.touches.add(slot);
            if (this.touches.size === 1) {
                this.touchCancelled = false;
                if (this.fromTablet(event) || !this.owner.drawing())
                    return Clutter.EVENT_PROPAGATE;
                this.drawingTouch = slot;
                this.stroke('touch', 'down', canvas, event);
            } else if (this.drawingTouch !== null && !this.touchCancelled) {
                this.touchCancelled = true;
                this.drawingTouch = null;
                this.owner.send('touch', 'cancel', []);
                if (!this.onPalette.delete('touch'))
                    this.owner.cancel('touch');
            }
        } else if (type === T.TOUCH_UPDATE) {
            if (this.drawingTouch !== slot)
                return Clutter.EVENT_PROPAGATE;
            this.stroke('touch', 'move', canvas, event);
        } else if (type === T.TOUCH_END || type === T.TOUCH_CANCEL) {
            this.touches.delete(slot);
            if (this.drawingTouch !== slot)
                return Clutter.EVENT_PROPAGATE;
            this.drawingTouch = null;
            if (type === T.TOUCH_END) {
                this.stroke('touch', 'up', canvas, event);
            } else {
                this.owner.send('touch', 'cancel', []);
                if (!this.onPalette.delete('touch'))
                    this.owner.cancel('touch');
            }
        }
        return Clutter.EVENT_STOP;
    }

    stroke(source, phase, canvas, event) {
        // A stroke the canvas's minimize ended: the daemon ended it too.
        if (!this.owner.drawing())
            return;
        const [sx, sy] = event.get_coords();
        const [, px, py] = canvas.box.transform_stage_point(sx, sy);
        const g = canvas.geometry;
        // On the canvas: a drag that leaves it goes on along its edge, as the daemon would clamp it.
        const point = livePoint(daemonPoint(px, py, g));
        if (phase === 'down') {
            if (onRegions([point.x, point.y], this.owner.regions()))
                this.onPalette.add(source);
            else
                this.onPalette.delete(source);
        }
        this.owner.send(source, phase, [[point.x, point.y]], phase === 'down' ? g.height / g.width : undefined);
        if (this.onPalette.has(source)) {
            if (phase === 'up')
                this.onPalette.delete(source);
            return;
        }
        this.owner.live(source, point, phase !== 'up');
    }
}
