// SPDX-License-Identifier: MIT
import Cairo from 'cairo';

import {SPEC} from './spec.js';
import {HIGHLIGHTER_OPACITY, REFERENCE_WIDTH, drawsWhole, parseColor, referenceWidth} from './style.js';
import {TILE} from './tiles.js';

// Texts ("tool":"text"): the spec's one font through cairo's toy text API, as
// stylus-canvas draws them (InkLayers+Text.swift), so both give the same pixels.
export const TEXT = SPEC.text;

// A text's size at a style of this width, in reference pixels: clamp(widthFactor × width, sizeRange).
export function textSize(width) {
    return Math.min(Math.max(width * TEXT.widthFactor, TEXT.sizeRange[0]), TEXT.sizeRange[1]);
}

// Line `index`'s baseline below the anchor (the first line's top left), for a text of `size`.
export function textBaseline(index, size) {
    return size * (TEXT.baselineShare + TEXT.lineHeightShare * index);
}

// A rectangle of pixels {x0, y0, x1, y1}.
function meets(a, b) {
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// The rule of docs/OVERLAY.md ("How ink is drawn") on one monitor: normalized
// (x, y) lies at (x·W, y·H) of the area the tablet maps to, less the monitor's
// place in it. There are no layers of pixels here: a tile draws the strokes
// that reach it (draw), told where a stroke's ink lies by cover.
export class InkLayers {
    constructor(geometry) {
        this.geometry = geometry;
    }

    pixel(p) {
        return [p.x * this.geometry.width - this.geometry.x, p.y * this.geometry.height - this.geometry.y];
    }

    lineWidth(style, a, b) {
        return referenceWidth(style, a, b) * this.geometry.width / REFERENCE_WIDTH;
    }

    // How far from its line a segment's ink reaches: half its width, a pixel of antialiasing and one to spare.
    reach(style, a, b) {
        return this.lineWidth(style, a, b) / 2 + 2;
    }

    // Calls add(box) for boxes that hold all the ink of the line from (ax, ay)
    // to (bx, by) reaching r: one box per piece of at most half a tile, so a
    // long line marks the tiles along it, not every tile of its bounding box.
    coverLine(ax, ay, bx, by, r, add) {
        const pieces = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / (TILE / 2)));
        for (let i = 0; i < pieces; i++) {
            const x0 = ax + (bx - ax) * i / pieces, y0 = ay + (by - ay) * i / pieces;
            const x1 = ax + (bx - ax) * (i + 1) / pieces, y1 = ay + (by - ay) * (i + 1) / pieces;
            add({x0: Math.min(x0, x1) - r, y0: Math.min(y0, y1) - r, x1: Math.max(x0, x1) + r, y1: Math.max(y0, y1) + r});
        }
    }

    coverSegment(a, b, style, add) {
        const [ax, ay] = this.pixel(a), [bx, by] = this.pixel(b);
        this.coverLine(ax, ay, bx, by, this.reach(style, a, b), add);
    }

    // A text stroke's size in window pixels (its own, else the rule's for its width).
    textPixels(stroke) {
        return (stroke.size ?? textSize(stroke.style.width)) * this.geometry.width / REFERENCE_WIDTH;
    }

    // Calls add(box) for boxes that hold all the ink of `stroke`.
    cover(stroke, add) {
        const points = stroke.points, style = stroke.style;
        if (style.tool === 'text') {
            // Generous: no glyph of the font is wider than its size, nor reaches further below a baseline.
            if ((!stroke.text && !stroke.caret) || points.length < 1)
                return;
            const [x, y] = this.pixel(points[0]), size = this.textPixels(stroke), lines = (stroke.text ?? '').split('\n');
            const longest = Math.max(...lines.map(line => [...line].length));
            add({x0: x - size / 2 - 2, y0: y - 2, x1: x + longest * size + 2, y1: y + textBaseline(lines.length - 1, size) + size / 2 + 2});
            return;
        }
        if (points.length < 2)
            return;
        if (!drawsWhole(style.tool)) {
            for (let i = 1; i < points.length; i++)
                this.coverSegment(points[i - 1], points[i], style, add);
            return;
        }
        const first = points[0], last = points[points.length - 1];
        const width = this.lineWidth(style, first, last), r = width / 2 + 2;
        const [ax, ay] = this.pixel(first), [bx, by] = this.pixel(last);
        switch (style.tool) {
        case 'arrow': {
            const head = Math.min(Math.max(12, 4 * width), Math.hypot(bx - ax, by - ay) / 2) + r;
            add({x0: bx - head, y0: by - head, x1: bx + head, y1: by + head});
        }
        // falls through: the shaft
        case 'line':
            this.coverLine(ax, ay, bx, by, r, add);
            break;
        case 'rectangle':
            this.coverLine(ax, ay, bx, ay, r, add);
            this.coverLine(bx, ay, bx, by, r, add);
            this.coverLine(bx, by, ax, by, r, add);
            this.coverLine(ax, by, ax, ay, r, add);
            break;
        case 'ellipse':
            add({x0: Math.min(ax, bx) - r, y0: Math.min(ay, by) - r, x1: Math.max(ax, bx) + r, y1: Math.max(ay, by) + r});
            break;
        default:    // the highlighter's path
            for (let i = 1; i < points.length; i++) {
                const [x0, y0] = this.pixel(points[i - 1]), [x1, y1] = this.pixel(points[i]);
                this.coverLine(x0, y0, x1, y1, r, add);
            }
        }
    }

    setInk(cr, style) {
        cr.setLineCap(Cairo.LineCap.ROUND);
        cr.setLineJoin(Cairo.LineJoin.ROUND);
        const [r, g, b] = parseColor(style.color);
        if (style.tool === 'eraser') {
            cr.setOperator(Cairo.Operator.CLEAR);
        } else if (style.tool === 'highlighter') {
            cr.setLineCap(Cairo.LineCap.BUTT);
            cr.setSourceRGBA(r, g, b, HIGHLIGHTER_OPACITY);
        } else {
            cr.setSourceRGBA(r, g, b, 1);
        }
    }

    // The ink of `stroke` within `box`, over what `cr` holds: a segment whose ink
    // cannot reach the box is not drawn (the pixels are those of the whole stroke).
    draw(cr, stroke, box) {
        const points = stroke.points, style = stroke.style;
        if (style.tool === 'text') {
            // Drawn whole: the text tool's live pen strokes (no words) draw nothing.
            if (stroke.text && points.length >= 1)
                this.drawText(cr, stroke);
            // The text being typed (textTyping.js): a thin caret after its last line.
            if (stroke.caret && points.length >= 1)
                this.drawCaret(cr, stroke);
            return;
        }
        if (points.length < 2)
            return;
        cr.save();
        this.setInk(cr, style);
        if (drawsWhole(style.tool)) {
            this.drawWhole(cr, stroke, box);
        } else {
            for (let i = 1; i < points.length; i++) {
                const a = points[i - 1], b = points[i];
                const [ax, ay] = this.pixel(a), [bx, by] = this.pixel(b), r = this.reach(style, a, b);
                if (meets(box, {x0: Math.min(ax, bx) - r, y0: Math.min(ay, by) - r, x1: Math.max(ax, bx) + r, y1: Math.max(ay, by) + r}))
                    this.segment(cr, a, b, style);
            }
        }
        cr.restore();
    }

    drawText(cr, stroke) {
        const [x, y] = this.pixel(stroke.points[0]), size = this.textPixels(stroke);
        const [r, g, b] = parseColor(stroke.style.color);
        cr.save();
        cr.setSourceRGBA(r, g, b, 1);
        cr.selectFontFace(TEXT.font, Cairo.FontSlant.NORMAL, Cairo.FontWeight.NORMAL);
        cr.setFontSize(size);
        stroke.text.split('\n').forEach((line, i) => {
            if (!line)
                return;
            cr.moveTo(x, y + textBaseline(i, size));
            cr.showText(line);
        });
        cr.restore();
    }

    // As stylus-canvas's InkLayers+Text.swift places it: after the last line's advance, from its ascent to its descent.
    drawCaret(cr, stroke) {
        const [x, y] = this.pixel(stroke.points[0]), size = this.textPixels(stroke);
        const lines = (stroke.text ?? '').split('\n'), last = lines[lines.length - 1];
        cr.save();
        cr.selectFontFace(TEXT.font, Cairo.FontSlant.NORMAL, Cairo.FontWeight.NORMAL);
        cr.setFontSize(size);
        const advance = last ? cr.textExtents(last).xAdvance : 0;
        const baseline = y + textBaseline(lines.length - 1, size);
        cr.setSourceRGBA(...parseColor(stroke.style.color), 1);
        cr.rectangle(x + advance, baseline - TEXT.baselineShare * size, 2, (TEXT.lineHeightShare) * size);
        cr.fill();
        cr.restore();
    }

    segment(cr, a, b, style) {
        const [ax, ay] = this.pixel(a), [bx, by] = this.pixel(b);
        cr.setLineWidth(this.lineWidth(style, a, b));
        cr.moveTo(ax, ay);
        cr.lineTo(bx, by);
        cr.stroke();
    }

    // A shape from the first point to the last, or the highlighter's whole
    // path as one stroke (it does not darken where it crosses itself), of
    // which only the part that can reach `box`.
    drawWhole(cr, stroke, box = null) {
        const points = stroke.points, tool = stroke.style.tool;
        const first = points[0], last = points[points.length - 1];
        const width = this.lineWidth(stroke.style, first, last);
        cr.setLineWidth(width);
        const [ax, ay] = this.pixel(first), [bx, by] = this.pixel(last);
        if (tool === 'line' || tool === 'arrow') {
            cr.moveTo(ax, ay);
            cr.lineTo(bx, by);
            const length = Math.hypot(bx - ax, by - ay);
            if (tool === 'arrow' && length > 0) {
                const head = Math.min(Math.max(12, 4 * width), length / 2);
                const angle = Math.atan2(by - ay, bx - ax);
                cr.moveTo(bx - head * Math.cos(angle + 0.5), by - head * Math.sin(angle + 0.5));
                cr.lineTo(bx, by);
                cr.lineTo(bx - head * Math.cos(angle - 0.5), by - head * Math.sin(angle - 0.5));
            }
        } else if (tool === 'rectangle') {
            cr.moveTo(ax, ay);
            cr.lineTo(bx, ay);
            cr.lineTo(bx, by);
            cr.lineTo(ax, by);
            cr.closePath();
        } else if (tool === 'ellipse') {
            cr.save();
            cr.translate((ax + bx) / 2, (ay + by) / 2);
            cr.scale(Math.max(Math.abs(bx - ax) / 2, 0.01), Math.max(Math.abs(by - ay) / 2, 0.01));
            cr.arc(0, 0, 1, 0, 2 * Math.PI);
            cr.restore();
        } else {
            // Only the segments whose ink can reach `box`: where the path leaves
            // and comes back, its joins lie farther from the box than they reach.
            const r = width / 2 + 2;
            let open = false;
            for (let i = 1; i < points.length; i++) {
                const [x0, y0] = this.pixel(points[i - 1]), [x1, y1] = this.pixel(points[i]);
                if (box && !meets(box, {x0: Math.min(x0, x1) - r, y0: Math.min(y0, y1) - r, x1: Math.max(x0, x1) + r, y1: Math.max(y0, y1) + r})) {
                    open = false;
                    continue;
                }
                if (!open)
                    cr.moveTo(x0, y0);
                cr.lineTo(x1, y1);
                open = true;
            }
        }
        cr.stroke();
    }
}

