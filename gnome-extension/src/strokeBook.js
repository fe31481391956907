// SPDX-License-Identifier: MIT
import {SPEC} from './spec.js';
import {drawsWhole, sameStyle} from './style.js';

export const LASER_LIFETIME_MS = SPEC.timings.laserLifetimeMilliseconds;

// The daemon's strokes (the authority) and the live ones drawn from pen
// samples until a `strokes` answer contains them; as CanvasModel's StrokeBook.
export class StrokeBook {
    constructor() {
        this.finished = [];
        this.liveDone = [];
        this.liveCurrent = new Map();
        this.lasers = [];
        this.owedDrops = 0;
        // The text tool's last tap and their count: a canvas places its caret there. Its contacts
        // draw no live ink, and the daemon records no stroke for them.
        this.textTap = null;
        this.textTaps = 0;
        this.textDown = new Set();
    }

    // 'unchanged', 'rebuild', or [from, to) of finished to draw over what is there.
    reconcile(strokes, rebuild) {
        const old = this.finished.length;
        const extends_ = !rebuild && strokes.length >= old &&
            (old === 0 || strokes[old - 1].points.length === this.finished[old - 1].points.length);
        let result;
        if (!extends_) {
            result = 'rebuild';
            this.liveDone = [];
        } else if (strokes.length === old) {
            result = 'unchanged';
        } else {
            result = [old, strokes.length];
        }
        const confirmed = extends_ ? strokes.length - old : 0;
        const dropped = Math.min(confirmed, this.liveDone.length);
        this.liveDone.splice(0, dropped);
        this.owedDrops = extends_ ? this.owedDrops + confirmed - dropped : 0;
        this.finished = strokes;
        return {finished: result, liveChanged: dropped > 0 || !extends_};
    }

    clear() {
        this.finished = [];
        this.liveDone = [];
        this.liveCurrent.clear();
        this.lasers = [];
        this.owedDrops = 0;
    }

    // The daemon never records a laser stroke: it leaves LASER_LIFETIME_MS after it ended.
    expireOldestLaser() {
        return this.lasers.shift() !== undefined;
    }

    // {segment: [a, b, style]}, 'redrawLive' or null.
    penSample(device, style, point, tip) {
        // A contact begun with the text tool draws nothing until it lifts, whatever the style becomes.
        if (style.tool === 'text' || this.textDown.has(device)) {
            const redraw = this.endStroke(device);
            if (!tip) {
                this.textDown.delete(device);
            } else if (!this.textDown.has(device)) {
                this.textDown.add(device);
                this.textTap = point;
                this.textTaps++;
            }
            return redraw ? 'redrawLive' : null;
        }
        if (!tip)
            return this.endStroke(device) ? 'redrawLive' : null;
        const stroke = this.liveCurrent.get(device);
        if (stroke && sameStyle(stroke.style, style)) {
            const last = stroke.points[stroke.points.length - 1];
            stroke.points.push(point);
            return drawsWhole(style.tool) ? 'redrawLive' : {segment: [last, point, style]};
        }
        const redraw = this.endStroke(device);
        this.liveCurrent.set(device, {device, style, points: [point]});
        return redraw ? 'redrawLive' : null;
    }

    endStroke(device) {
        const stroke = this.liveCurrent.get(device);
        this.liveCurrent.delete(device);
        if (!stroke || stroke.points.length < 2)
            return false;
        if (stroke.style.tool === 'laser') {
            this.lasers.push(stroke);
            return false;
        }
        if (this.owedDrops > 0) {
            this.owedDrops--;
            return true;
        }
        this.liveDone.push(stroke);
        return false;
    }

    get liveStrokes() {
        return [...this.liveDone, ...this.lasers, ...[...this.liveCurrent.keys()].sort((a, b) => a - b).map(k => this.liveCurrent.get(k))];
    }
}

