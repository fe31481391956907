// SPDX-License-Identifier: MIT
import Clutter from 'gi://Clutter';
import St from 'gi://St';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';

import {boardPaper, drawBoard} from './board.js';
import {OpenIndicator} from './openIndicator.js';
import {InkLayers} from './inkLayers.js';
import {drawPaletteButton, PALETTE_PAD_SHARE} from './palette.js';
import {SPEC} from './spec.js';
import {sameStyle} from './style.js';
import {TILE, TileGrid} from './tiles.js';

export const RING_RADIUS = SPEC.hoverRing.radius, RING_WIDTH = SPEC.hoverRing.width;

// The canvas on one monitor: a container above every window (top chrome, never
// in the Shell's input region) holding the ink as two grids of tiles and a ring
// per hovering tool. A finished tile draws the finished strokes that reach it
// (and the erasers in progress, which clear them); a live tile above it the
// strokes in progress, and goes once the daemon confirms them. A change repaints
// only the tiles it touches; a tile exists from when a stroke's box first reaches
// it until a redraw (undo, redo, erase) finds none there, and has an actor only
// while the canvas shows.
export class MonitorCanvas {
    constructor(monitor, geometry, shown, hover) {
        this.box = new St.Widget({
            name: 'stylus-canvas', reactive: false, visible: shown, opacity: shown ? 255 : 0,
            x: monitor.x, y: monitor.y, width: monitor.width, height: monitor.height,
            layout_manager: new Clutter.FixedLayout(),
        });
        this.ink = new InkLayers(geometry);
        // Each tile {actor, strokes}: the finished strokes that reach it, in order.
        this.finished = new TileGrid(TILE, monitor.width, monitor.height);
        // Each tile an actor.
        this.live = new TileGrid(TILE, monitor.width, monitor.height);
        this.liveStrokes = [];
        // The finished tiles the erasers in progress reached.
        this.erased = new Set();
        this.dirtyFinished = new Set();
        this.dirtyLive = new Set();
        // Whether the tiles have actors: not while the canvas is hidden.
        this.painted = shown;
        // The finished tiles, the live ones over them, then the rings and the palette.
        this.finishedGroup = new Clutter.Actor();
        this.liveGroup = new Clutter.Actor();
        this.box.add_child(this.finishedGroup);
        this.box.add_child(this.liveGroup);
        this.monitor = monitor;
        this.geometry = geometry;
        this.palette = {buttons: [], style: null, area: null};
        this.rings = new Map();
        this.hover = hover;
        // The board under the ink (the daemon's `background`) and the actor that paints it while shown.
        this.board = {name: 'none', area: null};
        // The open-canvas sign over everything else, while shown.
        this.indicator = new OpenIndicator(this.box, monitor);
        this.indicator.setShown(shown);
        Main.layoutManager.addTopChrome(this.box, {affectsInputRegion: false, trackFullscreen: false});
    }

    // Finished strokes drawn after those there are. An eraser's only changes
    // tiles that hold ink already.
    addFinished(strokes) {
        for (const stroke of strokes) {
            const erases = stroke.style.tool === 'eraser';
            this.ink.cover(stroke, box => this.finished.in(box, i => {
                const tiles = this.finished.tiles;
                if (erases && !tiles[i]?.strokes.length)
                    return;
                const tile = tiles[i] ?? (tiles[i] = {actor: null, strokes: []});
                if (tile.strokes[tile.strokes.length - 1] !== stroke)
                    tile.strokes.push(stroke);
                this.dirtyFinished.add(i);
            }));
        }
    }

    // The finished strokes are these (an undo, a redo, an erase, another daemon):
    // a tile no stroke reaches any more goes.
    setFinished(strokes) {
        const tiles = this.finished.tiles;
        for (const tile of tiles) {
            if (tile)
                tile.strokes = [];
        }
        this.addFinished(strokes);
        tiles.forEach((tile, i) => {
            if (tile && tile.strokes.length === 0) {
                tile.actor?.destroy();
                tiles[i] = null;
            }
        });
    }

    // The strokes in progress are these.
    setLive(strokes) {
        this.liveStrokes = strokes;
        const inked = new Set();
        for (const stroke of strokes) {
            if (stroke.style.tool !== 'eraser')
                this.ink.cover(stroke, box => this.live.in(box, i => inked.add(i)));
        }
        this.live.tiles.forEach((actor, i) => {
            if (actor && !inked.has(i)) {
                actor.destroy();
                this.live.tiles[i] = null;
            }
        });
        for (const i of inked)
            this.dirtyLive.add(i);
        // An eraser no longer in progress (finished, or undone) leaves what it cleared to the finished strokes.
        for (const i of this.erased)
            this.dirtyFinished.add(i);
        this.erased.clear();
        for (const stroke of strokes) {
            if (stroke.style.tool === 'eraser')
                this.ink.cover(stroke, box => this.erase(box));
        }
    }

    // An eraser in progress reached `box`: the tiles with ink there.
    erase(box) {
        this.finished.in(box, i => {
            if (this.finished.tiles[i]) {
                this.erased.add(i);
                this.dirtyFinished.add(i);
            }
        });
        this.live.in(box, i => {
            if (this.live.tiles[i])
                this.dirtyLive.add(i);
        });
    }

    // A segment added to a stroke in progress (`strokes`): an eraser's clears
    // finished and live ink, the others' is drawn in the live tiles it reaches.
    liveSegment(a, b, style, strokes) {
        this.liveStrokes = strokes;
        this.ink.coverSegment(a, b, style, box => {
            if (style.tool === 'eraser')
                this.erase(box);
            else
                this.live.in(box, i => this.dirtyLive.add(i));
        });
    }

    // Hidden, the canvas keeps the strokes of each tile but not their pixels:
    // the Shell's buffer and texture of each tile go, and showing it paints the
    // tiles again as the Shell lays them out for the first frame.
    setShown(shown) {
        if (shown === this.painted)
            return;
        this.painted = shown;
        this.updateBoard();
        this.indicator.setShown(shown);
        if (shown) {
            this.finished.tiles.forEach((tile, i) => {
                if (tile)
                    this.dirtyFinished.add(i);
            });
            this.setLive(this.liveStrokes);
            this.flush();
            return;
        }
        for (const tile of this.finished.tiles) {
            if (tile?.actor) {
                tile.actor.destroy();
                tile.actor = null;
            }
        }
        this.live.tiles.forEach((actor, i) => {
            actor?.destroy();
            this.live.tiles[i] = null;
        });
    }

    // `[canvas] indicator`: frame, badge or none.
    setIndicator(kind) {
        this.indicatorKind = kind;
        this.indicator.set(kind, this.palette.style?.color ?? null);
    }

    // The board under every tile: an eraser clears a tile's ink, never the board.
    setBoard(name) {
        if (name === this.board.name)
            return;
        this.board.name = name;
        this.palette.area?.queue_repaint();  // the board button shows the board
        this.board.area?.destroy();
        this.board.area = null;
        this.updateBoard();
    }

    // One actor as large as the monitor, under the ink, only while shown (hidden, its buffer goes).
    updateBoard() {
        const wanted = this.painted && boardPaper(this.board.name) !== null;
        if (!wanted) {
            this.board.area?.destroy();
            this.board.area = null;
            return;
        }
        if (this.board.area)
            return;
        const {width, height} = this.monitor;
        const area = new St.DrawingArea({x: 0, y: 0, width, height});
        area.connect('repaint', a => {
            const cr = a.get_context();
            drawBoard(cr, this.board.name, this.geometry, width, height);
            cr.$dispose();
        });
        this.box.insert_child_below(area, null);
        this.board.area = area;
    }

    // Each changed tile repainted once; a new one paints as the Shell lays it out.
    flush() {
        if (!this.painted) {
            this.dirtyFinished.clear();
            this.dirtyLive.clear();
            return;
        }
        for (const i of this.dirtyFinished) {
            const tile = this.finished.tiles[i];
            if (!tile)
                continue;
            if (tile.actor)
                tile.actor.queue_repaint();
            else
                tile.actor = this.newTile(this.finished.box(i), this.finishedGroup, (cr, box) => this.paintFinished(cr, i, box));
        }
        const live = this.live.tiles;
        for (const i of this.dirtyLive) {
            if (live[i])
                live[i].queue_repaint();
            else
                live[i] = this.newTile(this.live.box(i), this.liveGroup, (cr, box) => this.paintLive(cr, box));
        }
        this.dirtyFinished.clear();
        this.dirtyLive.clear();
    }

    paintFinished(cr, i, box) {
        for (const stroke of this.finished.tiles[i]?.strokes ?? [])
            this.ink.draw(cr, stroke, box);
        for (const stroke of this.liveStrokes) {
            if (stroke.style.tool === 'eraser')
                this.ink.draw(cr, stroke, box);
        }
    }

    paintLive(cr, box) {
        for (const stroke of this.liveStrokes)
            this.ink.draw(cr, stroke, box);
    }

    newTile(box, group, paint) {
        const tile = new St.DrawingArea({x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0});
        tile.connect('repaint', a => {
            const cr = a.get_context();
            cr.translate(-box.x0, -box.y0);
            paint(cr, box);
            cr.$dispose();
        });
        group.add_child(tile);
        return tile;
    }

    // No ink: the tiles go with their buffers.
    clear() {
        for (const tile of this.finished.tiles)
            tile?.actor?.destroy();
        for (const actor of this.live.tiles)
            actor?.destroy();
        this.finished.tiles.fill(null);
        this.live.tiles.fill(null);
        this.liveStrokes = [];
        this.erased.clear();
        this.dirtyFinished.clear();
        this.dirtyLive.clear();
    }

    // A ring where each tool hovers or touches, moved rather than painted again.
    placeRings() {
        for (const [device, ring] of this.rings) {
            if (!this.hover.has(device)) {
                ring.destroy();
                this.rings.delete(device);
            }
        }
        const size = 2 * (RING_RADIUS + RING_WIDTH) + 2;
        for (const [device, point] of this.hover) {
            let ring = this.rings.get(device);
            if (!ring) {
                ring = new St.DrawingArea({width: size, height: size, visible: !this.chromeHidden});
                ring.connect('repaint', a => {
                    const cr = a.get_context();
                    cr.arc(size / 2, size / 2, RING_RADIUS, 0, 2 * Math.PI);
                    cr.setLineWidth(RING_WIDTH);
                    cr.setSourceRGBA(1, 1, 1, 0.8);
                    cr.strokePreserve();
                    cr.setLineWidth(1.5);
                    cr.setSourceRGBA(0.1, 0.1, 0.1, 0.9);
                    cr.stroke();
                    cr.$dispose();
                });
                this.box.add_child(ring);
                this.rings.set(device, ring);
            }
            const [x, y] = this.ink.pixel(point);
            ring.set_position(Math.round(x - size / 2), Math.round(y - size / 2));
        }
    }

    // The palette, the rings and the open-canvas sign out of the picture (a snapshot) or back.
    setChromeHidden(hidden) {
        this.chromeHidden = hidden;
        if (this.palette.area)
            this.palette.area.visible = !hidden;
        for (const ring of this.rings.values())
            ring.visible = !hidden;
        this.indicator.setHidden(hidden);
    }

    // The palette's own actor, over the ink: only the strip, painted when the style changes.
    setPalette(buttons, style) {
        this.indicator.set(this.indicatorKind ?? 'frame', style.color);
        const p = this.palette;
        if (p.style && sameStyle(style, p.style) && JSON.stringify(buttons) === JSON.stringify(p.buttons))
            return;
        p.buttons = buttons;
        p.style = style;
        if (buttons.length === 0) {
            if (p.area) {
                p.area.destroy();
                p.area = null;
            }
            return;
        }
        const pad = buttons[0].size * PALETTE_PAD_SHARE;
        const x0 = buttons[0].x - pad, y0 = buttons[0].y - pad;
        const x1 = Math.max(...buttons.map(b => b.x + b.size)) + pad, y1 = Math.max(...buttons.map(b => b.y + b.size)) + pad;
        if (!p.area) {
            p.area = new St.DrawingArea();
            p.area.connect('repaint', a => this.paintPalette(a));
            this.box.add_child(p.area);
        }
        p.origin = [Math.floor(x0), Math.floor(y0)];
        p.area.set_position(...p.origin);
        p.area.set_size(Math.ceil(x1) - p.origin[0], Math.ceil(y1) - p.origin[1]);
        p.strip = [x0, y0, x1 - x0, y1 - y0];
        p.area.queue_repaint();
    }

    paintPalette(area) {
        const p = this.palette;
        const cr = area.get_context();
        const [ox, oy] = p.origin;
        const [x, y, w, h] = p.strip;
        cr.rectangle(x - ox, y - oy, w, h);
        cr.setSourceRGBA(0.16, 0.16, 0.18, 0.88);
        cr.fill();
        for (const b of p.buttons) {
            const selected = (b.kind === 'color' && b.color.toLowerCase() === p.style.color.toLowerCase()) || (b.kind === 'tool' && b.tool === p.style.tool);
            drawPaletteButton(cr, b, b.x - ox, b.y - oy, selected, this.board.name);
        }
        cr.$dispose();
    }

    destroy() {
        this.indicator.destroy();
        Main.layoutManager.removeChrome(this.box);
        this.box.destroy();
    }
}

