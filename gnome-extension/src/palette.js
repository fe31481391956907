// SPDX-License-Identifier: MIT
import Cairo from 'cairo';

import {BOARD_GRID_LINE, boardPaper} from './board.js';
import {SPEC} from './spec.js';
import {TOOLS, parseColor} from './style.js';

export const DEFAULT_PALETTE = SPEC.palette.colors;
export const PALETTE_SIDE_SHARE = SPEC.palette.shareOfShorterSide;
export const PALETTE_SIDE_MIN = SPEC.palette.sideMin;
export const PALETTE_SIDE_MAX = SPEC.palette.sideMax;
export const PALETTE_MARGIN_SHARE = SPEC.palette.marginShare;
export const PALETTE_PAD_SHARE = SPEC.palette.backgroundPadShare;
export const PALETTE_GLYPH_INSET_SHARE = SPEC.palette.glyphInsetShare;

// CanvasModel's PaletteLayout, number for number, so the palette sits where
// stylus-canvas puts it: one row in the bottom-left corner of a monitor, the
// colours, the tools, width - and +, the board; a button's side a share of the monitor's
// shorter side (within a range), a share of a side of margin around the row
// and between its groups.
export function paletteButtons(colors, width, height) {
    const groups = [
        colors.map(color => ({kind: 'color', color, select: `color:${color.toLowerCase()}`})),
        TOOLS.map(tool => ({kind: 'tool', tool, select: `tool:${tool}`})),
        [{kind: 'narrower', select: 'width:-'}, {kind: 'wider', select: 'width:+'}],
        [{kind: 'board', select: 'background:next'}],
    ];
    const count = groups.reduce((n, g) => n + g.length, 0);
    if (count === 0 || width <= 0 || height <= 0)
        return [];
    let side = Math.min(Math.max(Math.min(width, height) * PALETTE_SIDE_SHARE, PALETTE_SIDE_MIN), PALETTE_SIDE_MAX);
    // A margin before each group and after the last, and one more to spare.
    side = Math.min(side, width / (count + (groups.length + 2) * PALETTE_MARGIN_SHARE));
    const margin = side * PALETTE_MARGIN_SHARE, y = height - margin - side;
    let x = margin;
    const buttons = [];
    for (const group of groups) {
        for (const b of group) {
            buttons.push(Object.assign({x, y, size: side}, b));
            x += side;
        }
        x += margin;
    }
    return buttons;
}

// The buttons in the tablet's coordinates, for `palette-regions`: the inverse of
// InkLayers.pixel (a window pixel (px, py) is ((px + x) / width, (py + y) / height)
// of the area the tablet maps to); cut to that area.
export function paletteRegions(buttons, geometry) {
    const regions = [];
    for (const b of buttons) {
        const x0 = Math.max(0, (b.x + geometry.x) / geometry.width), y0 = Math.max(0, (b.y + geometry.y) / geometry.height);
        const x1 = Math.min(1, (b.x + b.size + geometry.x) / geometry.width), y1 = Math.min(1, (b.y + b.size + geometry.y) / geometry.height);
        if (x1 > x0 && y1 > y0)
            regions.push({x: x0, y: y0, width: x1 - x0, height: y1 - y0, select: b.select});
    }
    return regions;
}

// The glyphs of stylus-canvas's InkLayers+Palette.swift, drawn into a box of side `s` at (x, y);
// the board button shows `board`, the board now under the ink (the daemon's `background`).
export function drawPaletteButton(cr, b, x, y, selected, board = 'none') {
    const s = b.size, inset = s * PALETTE_GLYPH_INSET_SHARE;
    const bx = x + inset, by = y + inset, bw = s - 2 * inset, bh = s - 2 * inset;
    const at = (u, v) => [bx + u * bw, by + v * bh];
    const white = width => {
        cr.setSourceRGBA(0.95, 0.95, 0.95, 1);
        cr.setLineWidth(width);
    };
    const line = (u0, v0, u1, v1) => {
        cr.moveTo(...at(u0, v0));
        cr.lineTo(...at(u1, v1));
    };
    if (selected) {
        cr.rectangle(x + 2, y + 2, s - 4, s - 4);
        cr.setSourceRGBA(1, 1, 1, 1);
        cr.setLineWidth(2.5);
        cr.stroke();
    }
    cr.newPath();
    cr.setLineCap(Cairo.LineCap.ROUND);
    if (b.kind === 'color') {
        const c = parseColor(b.color);
        cr.rectangle(bx, by, bw, bh);
        cr.setSourceRGBA(c[0], c[1], c[2], 1);
        cr.fillPreserve();
        cr.setSourceRGBA(0.6, 0.6, 0.6, 1);
        cr.setLineWidth(1);
        cr.stroke();
    } else if (b.kind === 'tool') {
        switch (b.tool) {
        case 'pen':
            white(2);
            cr.moveTo(...at(0.05, 0.7));
            cr.curveTo(...at(0.35, -0.1), ...at(0.6, 1.1), ...at(0.95, 0.3));
            cr.stroke();
            break;
        case 'highlighter':
            cr.setSourceRGBA(0.93, 0.83, 0, 0.6);
            cr.setLineWidth(bh * 0.35);
            cr.setLineCap(Cairo.LineCap.BUTT);
            line(0.05, 0.55, 0.95, 0.45);
            cr.stroke();
            break;
        case 'eraser':
            white(1.5);
            cr.rectangle(bx + bw * 0.1, by + bh * 0.3, bw * 0.8, bh * 0.4);
            cr.stroke();
            cr.rectangle(bx + bw * 0.1, by + bh * 0.3, bw * 0.3, bh * 0.4);
            cr.fill();
            break;
        case 'laser':
            cr.arc(bx + bw / 2, by + bh / 2, bw * 0.42, 0, 2 * Math.PI);
            cr.setSourceRGBA(1, 0.2, 0.2, 0.35);
            cr.fill();
            cr.arc(bx + bw / 2, by + bh / 2, bw * 0.18, 0, 2 * Math.PI);
            cr.setSourceRGBA(1, 0.15, 0.15, 1);
            cr.fill();
            break;
        case 'line':
            white(2);
            line(0.1, 0.9, 0.9, 0.1);
            cr.stroke();
            cr.arc(...at(0.1, 0.9), 2.5, 0, 2 * Math.PI);
            cr.fill();
            cr.arc(...at(0.9, 0.1), 2.5, 0, 2 * Math.PI);
            cr.fill();
            break;
        case 'arrow':
            white(2);
            line(0.1, 0.9, 0.9, 0.1);
            line(0.9, 0.1, 0.45, 0.15);
            line(0.9, 0.1, 0.85, 0.55);
            cr.stroke();
            break;
        case 'rectangle':
            white(2);
            cr.rectangle(bx + bw * 0.05, by + bh * 0.2, bw * 0.9, bh * 0.6);
            cr.stroke();
            break;
        case 'ellipse':
            white(2);
            cr.save();
            cr.translate(bx + bw / 2, by + bh / 2);
            cr.scale(bw * 0.47, bh * 0.33);
            cr.arc(0, 0, 1, 0, 2 * Math.PI);
            cr.restore();
            cr.stroke();
            break;
        case 'text':
            // A letter T.
            white(2.5);
            line(0.2, 0.15, 0.8, 0.15);
            line(0.5, 0.15, 0.5, 0.85);
            cr.stroke();
            break;
        }
    } else if (b.kind === 'board') {
        drawBoardGlyph(cr, [bx, by, bw, bh], board);
    } else {
        white(2.5);
        line(0.15, 0.5, 0.85, 0.5);
        if (b.kind === 'wider')
            line(0.5, 0.15, 0.5, 0.85);
        cr.stroke();
    }
}


// InkLayers+BoardButton.swift's glyph: a small landscape sheet (unlike the square swatches)
// of the board's paper, the grid's lines on grid, a slash on none (the desktop shows).
function drawBoardGlyph(cr, [bx, by, bw, bh], board) {
    const sx = bx + 0.05 * bw, sy = by + 0.2 * bh, sw = 0.9 * bw, sh = 0.6 * bh;
    cr.save();
    cr.newPath();
    const paper = boardPaper(board);
    if (paper) {
        cr.rectangle(sx, sy, sw, sh);
        cr.setSourceRGBA(...parseColor(paper), 1);
        cr.fill();
    }
    cr.setLineWidth(1);
    if (board === 'grid') {
        for (const u of [1 / 3, 2 / 3]) {
            cr.moveTo(sx + u * sw, sy);
            cr.lineTo(sx + u * sw, sy + sh);
            cr.moveTo(sx, sy + u * sh);
            cr.lineTo(sx + sw, sy + u * sh);
        }
        const [r, g, b] = parseColor(BOARD_GRID_LINE);
        cr.setSourceRGBA(r * 0.8, g * 0.8, b * 0.8, 1);
        cr.stroke();
    }
    cr.rectangle(sx, sy, sw, sh);
    if (board === 'none') {
        cr.moveTo(sx, sy + sh);
        cr.lineTo(sx + sw, sy);
    }
    cr.setSourceRGBA(0.75, 0.75, 0.75, 1);
    cr.stroke();
    cr.restore();
}
