// SPDX-License-Identifier: MIT
// The sign that the canvas is open (`[canvas] indicator`), as stylus-canvas
// draws it (InkLayers+Indicator.swift): a frame of four thin actors on the
// monitor's edges in the current colour, or a dot near the top right corner.
// Its own actors over the ink, so no export ever holds it; where: indicator.js.
import St from 'gi://St';

import {INDICATOR_BADGE_OUTLINE, INDICATOR_BADGE_RADIUS, INDICATOR_FRAME_OPACITY, badgeCentre, indicatorRects} from './indicator.js';
import {parseColor} from './style.js';

export class OpenIndicator {
    constructor(box, monitor) {
        this.box = box;
        this.monitor = monitor;
        this.kind = 'none';
        this.color = null;
        this.shown = false;
        // Out of a snapshot's picture for its frame.
        this.hidden = false;
        this.actors = [];
    }

    setHidden(hidden) {
        this.hidden = hidden;
        for (const a of this.actors)
            a.visible = !hidden;
    }

    set(kind, color) {
        if (kind === this.kind && color === this.color)
            return;
        this.kind = kind;
        this.color = color;
        this.rebuild();
    }

    setShown(shown) {
        if (shown === this.shown)
            return;
        this.shown = shown;
        this.rebuild();
    }

    rebuild() {
        for (const a of this.actors)
            a.destroy();
        this.actors = [];
        if (!this.shown || !this.color)
            return;
        const [r, g, b] = parseColor(this.color).map(c => Math.round(c * 255));
        const rects = indicatorRects(this.kind, this.monitor.width, this.monitor.height);
        if (this.kind === 'frame') {
            // Four edges that do not overlap: each pixel of the frame painted once, at the spec's opacity.
            // A style rather than Clutter.Color, which GNOME 47 removed.
            const style = `background-color: rgba(${r}, ${g}, ${b}, ${INDICATOR_FRAME_OPACITY});`;
            for (const [x, y, width, height] of rects) {
                const edge = new St.Widget({x, y, width, height, reactive: false, style, visible: !this.hidden});
                this.box.add_child(edge);
                this.actors.push(edge);
            }
        } else if (this.kind === 'badge') {
            const [x, y, width, height] = rects[0];
            const area = new St.DrawingArea({x, y, width, height, reactive: false, visible: !this.hidden});
            const [bx, by] = badgeCentre(this.monitor.width);
            const cx = bx - x, cy = by - y;
            area.connect('repaint', a => {
                const cr = a.get_context();
                cr.arc(cx, cy, INDICATOR_BADGE_RADIUS, 0, 2 * Math.PI);
                cr.setSourceRGBA(r / 255, g / 255, b / 255, 1);
                cr.fillPreserve();
                cr.setLineWidth(INDICATOR_BADGE_OUTLINE);
                cr.setSourceRGBA(1, 1, 1, 0.9);
                cr.stroke();
                cr.$dispose();
            });
            this.box.add_child(area);
            this.actors.push(area);
        }
    }

    destroy() {
        for (const a of this.actors)
            a.destroy();
        this.actors = [];
    }
}
