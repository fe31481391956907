// SPDX-License-Identifier: MIT
// The grids of tiles a monitor's ink is painted in (monitorCanvas.js).
//
// The Shell holds each tile twice, the pixel buffer of its last repaint and its
// texture; the strokes, not a copy of their pixels, are what a repaint draws
// from, so the ink costs no more than that. Square tiles of one size keep
// those allocations small and alike, so the Shell's allocator reuses what it
// freed, where a full-screen or a resized actor left its heap a little larger
// each time. What the Shell holds goes with the number of tiles more than with
// their pixels (an open canvas at rest over the same 500 strokes held 30 MiB
// with 70 tiles of 128 pixels, 6.5 MiB with 15 of 256: docs/PERFORMANCE.md 9c),
// so tiles are not smaller.
export const TILE = 256;

// Square tiles of one side over a monitor: `tiles[i]` for the one at column
// i % columns, row floor(i / columns).
export class TileGrid {
    constructor(side, width, height) {
        this.side = side;
        this.width = width;
        this.height = height;
        this.columns = Math.ceil(width / side);
        this.rows = Math.ceil(height / side);
        this.tiles = new Array(this.columns * this.rows).fill(null);
    }

    // Calls visit(index) for each tile that `box` (pixels) overlaps.
    in(box, visit) {
        const side = this.side;
        const c0 = Math.max(0, Math.floor(box.x0 / side)), c1 = Math.min(this.columns - 1, Math.floor(box.x1 / side));
        const r0 = Math.max(0, Math.floor(box.y0 / side)), r1 = Math.min(this.rows - 1, Math.floor(box.y1 / side));
        for (let r = r0; r <= r1; r++) {
            for (let c = c0; c <= c1; c++)
                visit(r * this.columns + c);
        }
    }

    box(i) {
        const x = (i % this.columns) * this.side, y = Math.floor(i / this.columns) * this.side;
        return {x0: x, y0: y, x1: Math.min(x + this.side, this.width), y1: Math.min(y + this.side, this.height)};
    }
}
