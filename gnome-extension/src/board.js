// SPDX-License-Identifier: MIT
// The board under the ink, as CanvasModel's CanvasBoard paints it: the colours
// and the grid are canvas-spec.json's `board` (spec.js). The grid is square, its
// lines BOARD_GRID_SPACING reference pixels apart from the tablet area's corner.
import {SPEC} from './spec.js';
import {REFERENCE_WIDTH, parseColor} from './style.js';

export const BOARD_WHITE = SPEC.board.white;
export const BOARD_BLACK = SPEC.board.black;
export const BOARD_GRID_PAPER = SPEC.board.gridPaper;
export const BOARD_GRID_LINE = SPEC.board.gridLine;
export const BOARD_GRID_SPACING = SPEC.board.gridSpacing;
export const BOARD_GRID_LINE_WIDTH = SPEC.board.gridLineWidth;

// The paint of a board by its name (the daemon's `background`), #rrggbb; null for none.
export function boardPaper(name) {
    switch (name) {
    case 'white': return BOARD_WHITE;
    case 'black': return BOARD_BLACK;
    case 'grid': return BOARD_GRID_PAPER;
    default: return /^#[0-9a-fA-F]{6}$/.test(name || '') ? name.toLowerCase() : null;
    }
}

// The grid's lines across `length` pixels of a monitor `origin` pixels into an
// area `areaWidth` wide: each line's centre in the monitor's pixels.
export function gridLines(origin, length, areaWidth) {
    const step = BOARD_GRID_SPACING * areaWidth / REFERENCE_WIDTH;
    if (!(step >= 1) || length <= 0)
        return [];
    const lines = [];
    for (let k = Math.ceil(origin / step); k * step - origin < length; k++)
        lines.push(k * step - origin);
    return lines;
}

export function gridLineWidth(areaWidth) {
    return Math.max(1, BOARD_GRID_LINE_WIDTH * areaWidth / REFERENCE_WIDTH);
}

// Paints board `name` over a monitor `width`×`height` that lies at geometry.x,
// geometry.y of the area (geometry.width wide); whole-pixel grid lines, as stylus-canvas draws them.
export function drawBoard(cr, name, geometry, width, height) {
    const paper = boardPaper(name);
    if (!paper)
        return;
    cr.setSourceRGB(...parseColor(paper));
    cr.rectangle(0, 0, width, height);
    cr.fill();
    if (name !== 'grid')
        return;
    const lw = Math.round(gridLineWidth(geometry.width));
    const band = c => Math.round(c - lw / 2);
    for (const x of gridLines(geometry.x, width, geometry.width))
        cr.rectangle(band(x), 0, lw, height);
    for (const y of gridLines(geometry.y, height, geometry.width))
        cr.rectangle(0, band(y), width, lw);
    cr.setSourceRGB(...parseColor(BOARD_GRID_LINE));
    cr.fill();
}
