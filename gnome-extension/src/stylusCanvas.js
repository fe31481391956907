// SPDX-License-Identifier: MIT
// stylus-canvas@stylusd: stylusd's canvas drawn inside GNOME Shell, the one
// place on GNOME Wayland that can put see-through ink above every window
// (mutter offers no layer-shell, and xdg-shell makes a transparent fullscreen
// window black). A socket client of stylusd as stylus-canvas is: it follows
// the canvas's state, fetches the strokes, draws the live pen, and acks each
// transition after its fade, and takes the canvas off the screen when the
// daemon is gone.
//
// src/ holds it as ES modules, one concern each; build.sh joins them into the
// one extension.js of each format, with the imports of GNOME 43-44 (imports.gi)
// or of GNOME 45+ (ES modules), and generates spec.js, the numbers they draw
// with, from Sources/CanvasModel/canvas-spec.json. This one is the controller.
//
// The ink follows the renderer specification in docs/OVERLAY.md ("How ink is
// drawn"), the same as stylus-canvas's InkLayers, so a stroke looks the same
// on every desktop.
import Clutter from 'gi://Clutter';
import GLib from 'gi://GLib';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';

import {DaemonLink, log_, socketPath} from './daemonLink.js';
import {DrawStream, SOURCE_DEVICES} from './drawStream.js';
import {CanvasHelp} from './helpOverlay.js';
import {KeyGrabs} from './keyGrabs.js';
import {MonitorCanvas} from './monitorCanvas.js';
import {DEFAULT_PALETTE, paletteButtons, paletteRegions} from './palette.js';
import {PointerInput} from './pointerInput.js';
import {ScreenShare} from './screenShare.js';
import {SPEC} from './spec.js';
import {LASER_LIFETIME_MS, StrokeBook} from './strokeBook.js';
import {fetchFrom, wholeDrawing} from './strokesTail.js';
import {DEFAULT_TOOL, makeStyle} from './style.js';
import {TextTyping} from './textTyping.js';

export const FADE_MS = SPEC.timings.fadeMilliseconds;
// A daemon restarting (systemd does it at once) comes back well within this;
// one that died must not leave the canvas on the screen for more than 2 s.
export const DEAD_DAEMON_HIDE_MS = SPEC.timings.deadDaemonHideMilliseconds;

export class StylusCanvas {
    enable() {
        this.book = new StrokeBook();
        this.hover = new Map();
        this.state = 'minimized';
        this.shown = false;
        this.capturesPen = false;
        this.connected = false;
        this.generation = 0;
        this.currentStyle = makeStyle(DEFAULT_TOOL);
        this.paletteShown = false;
        // The board under the ink, by the daemon's name for it.
        this.board = 'none';
        this.paletteColors = DEFAULT_PALETTE;
        this.reportedRegions = null;
        this.fetching = false;
        this.fetchAgain = false;
        this.rebuildOnNextFetch = false;
        this.surfaces = [];
        this.clickThrough = !!GLib.getenv('STYLUS_CANVAS_CLICK_THROUGH');
        // `[canvas] pointer` as the daemon last said: whether the mouse and touch draw.
        this.pointerDraws = false;
        // The shown palette's regions, where a press selects rather than draws.
        this.shownRegions = [];
        this.draws = new DrawStream((fields, done) => {
            const refused = reason => {
                log_(`draw: ${reason}`);
                done();
            };
            if (!this.connected || !this.link.request('draw', fields, done, refused))
                done();
        });
        this.pointer = new PointerInput({
            drawing: () => !this.help.dismiss() && this.pointerDraws && this.shown && this.state === 'open',
            regions: () => this.shownRegions,
            send: (source, phase, points, aspect) => this.draws.push(source, phase, points, aspect),
            live: (source, point, tip) => this.pointerStroke(source, point, tip),
            cancel: source => this.cancelPointerStroke(source),
        });
        this.sharer = new ScreenShare(this);
        this.monitorsChangedId = Main.layoutManager.connect('monitors-changed', () => this.placeSurfaces());
        this.help = new CanvasHelp(this);
        this.keys = new KeyGrabs((cmd, fields) => {
            if (this.shown)
                this.link.request(cmd, fields);
        }, name => this.help.key(name));
        this.typing = new TextTyping({
            actor: () => this.surfaces[0]?.box ?? null,
            ink: () => this.surfaces[0]?.ink ?? null,
            keys: this.keys,
            shown: () => this.shown,
            send: fields => this.link.request('text', fields, null, reason => log_(`text: ${reason}`)),
            shortcut: key => this.link.request('key', {key}, null, reason => log_(`key ${key}: ${reason}`)),
            changed: () => this.redrawLive(),
        });
        this.placeSurfaces();
        log_(`following ${socketPath()}`);
        this.link = new DaemonLink(socketPath(), update => this.handle(update));
    }

    disable() {
        this.typing.end(false);
        this.link.destroy();
        this.keys.destroy();
        Main.layoutManager.disconnect(this.monitorsChangedId);
        for (const s of this.surfaces)
            this.destroySurface(s);
        this.surfaces = [];
    }

    // One drawing area per monitor, above every window (top chrome), never
    // taking part in the shell's input region: clicks go where `reactive` says.
    placeSurfaces() {
        this.help?.dismiss();
        for (const s of this.surfaces)
            this.destroySurface(s);
        const monitors = Main.layoutManager.monitors;
        // A tablet that is not mapped to one monitor covers the whole desktop.
        const x0 = Math.min(...monitors.map(m => m.x)), y0 = Math.min(...monitors.map(m => m.y));
        const x1 = Math.max(...monitors.map(m => m.x + m.width)), y1 = Math.max(...monitors.map(m => m.y + m.height));
        this.surfaces = monitors.map(m => {
            const s = new MonitorCanvas(m, {x: m.x - x0, y: m.y - y0, width: x1 - x0, height: y1 - y0}, this.shown, this.hover);
            s.setBoard(this.board);
            s.setIndicator(this.indicator ?? 'frame');
            s.setFinished(this.book.finished);
            s.setLive(this.liveInk());
            s.flush();
            this.pointer.attach(s);
            return s;
        });
        // The area the tablet maps to: what an export draws at when it is given no size.
        this.area = {width: x1 - x0, height: y1 - y0};
        this.updateReactive();
        if (this.connected)
            this.reportOverlay();
        this.updatePalette();
    }

    reportOverlay() {
        const report = {backend: 'gnome-extension', outputs: this.surfaces.length};
        // The joined extension.js defines both (build.sh): which variant runs, on which GNOME.
        if (typeof EXTENSION_VARIANT === 'string')
            Object.assign(report, {variant: EXTENSION_VARIANT, shell: SHELL_VERSION});
        if (this.area && this.area.width > 0 && this.area.height > 0)
            Object.assign(report, this.area);
        this.link.request('overlay', report);
    }

    // The palette on the first monitor, drawn while the daemon says it shows; its
    // buttons go to the daemon, which sees every tap, on this link's connection
    // (the daemon forgets them when it closes, as when the extension is disabled).
    updatePalette() {
        const first = this.surfaces[0];
        if (!first)
            return;
        const buttons = paletteButtons(this.paletteColors, first.monitor.width, first.monitor.height);
        first.setPalette(this.paletteShown ? buttons : [], this.currentStyle);
        for (const s of this.surfaces.slice(1))
            s.setPalette([], this.currentStyle);
        const regions = paletteRegions(buttons, first.geometry);
        this.shownRegions = this.paletteShown ? regions : [];
        const text = JSON.stringify(regions);
        if (!this.connected || text === this.reportedRegions)
            return;
        this.reportedRegions = text;
        this.link.request('palette-regions', {regions}, () => log_(`palette: ${regions.length} regions reported`));
    }

    setIndicator(kind) {
        if (kind !== this.indicator)
            log_(`indicator ${kind}`);
        this.indicator = kind;
        for (const s of this.surfaces)
            s.setIndicator(kind);
    }

    setBoard(name) {
        if (name !== this.board)
            log_(`background ${name}`);
        this.board = name;
        for (const s of this.surfaces)
            s.setBoard(name);
    }

    destroySurface(s) {
        s.destroy();
    }

    // ------------------------------------------------------------ the daemon's updates

    handle(update) {
        if (update.type === 'connected') {
            const status = update.status;
            this.connected = true;
            this.generation++;
            log_(`${update.again ? 'reconnected' : 'connected'}: canvas ${status.canvas.state}, ${status.canvas.stroke_count} strokes`);
            this.setCapturesPen(!!(status.output && (status.output.captures_pen ?? status.output.mode === 'filter')));
            if (status.tool)
                this.currentStyle = makeStyle(status.tool.tool, status.tool.color, status.tool.width);
            this.reportOverlay();
            this.paletteShown = !!(status.tool && status.tool.palette);
            if (status.tool && Array.isArray(status.tool.colors) && status.tool.colors.length > 0)
                this.paletteColors = status.tool.colors;
            this.setBoard(status.canvas.background || 'none');
            this.setIndicator(status.canvas.indicator || 'frame');
            this.setPointerDraws(status.canvas.pointer);
            // A daemon that restarted knows no regions.
            this.reportedRegions = null;
            this.updatePalette();
            // Another daemon's drawing, maybe: the whole of it, not a tail joined to the old one's.
            if (update.again)
                this.rebuildOnNextFetch = true;
            if (update.again || status.canvas.stroke_count !== this.book.finished.length)
                this.fetchStrokes();
            this.follow(status.canvas.state);
        } else if (update.type === 'disconnected') {
            const wasConnected = this.connected;
            this.connected = false;
            this.generation++;
            const generation = this.generation;
            if (wasConnected)
                log_(`disconnected: ${update.reason}`);
            // A daemon that stopped gave the pen back to the desktop: the canvas takes the clicks until it hides.
            this.setCapturesPen(false);
            this.draws.reset();
            GLib.timeout_add(GLib.PRIORITY_DEFAULT, DEAD_DAEMON_HIDE_MS, () => {
                if (generation === this.generation && !this.connected && this.shown) {
                    log_(`stylusd gone for ${DEAD_DAEMON_HIDE_MS / 1000} s: hiding`);
                    this.hideNow();
                }
                return GLib.SOURCE_REMOVE;
            });
        } else {
            this.event(update.event);
        }
    }

    event(e) {
        switch (e.event) {
        case 'canvas':
            log_(`canvas ${e.state} (${e.cause}, ${e.stroke_count} strokes)`);
            if ((e.cause === 'undo' || e.cause === 'redo' || e.cause === 'erase') && e.stroke_count > 0) {
                this.rebuildOnNextFetch = true;
                this.fetchStrokes();
            } else if (e.stroke_count === 0 && (this.book.finished.length > 0 || this.book.liveStrokes.length > 0)) {
                this.book.clear();
                for (const s of this.surfaces)
                    s.clear();
            } else if (e.stroke_count !== this.book.finished.length && !this.fetching) {
                this.fetchStrokes();
            }
            this.follow(e.state);
            break;
        case 'stroke':
            this.fetchStrokes();
            break;
        case 'output':
            if (e.captures_pen !== undefined)
                this.setCapturesPen(e.captures_pen);
            else
                this.setCapturesPen(e.mode === 'filter');
            break;
        case 'background':
            this.setBoard(e.background || 'none');
            break;
        case 'share':
            this.sharer.answer(e);
            break;
        case 'tool':
            this.currentStyle = makeStyle(e.tool, e.color, e.width);
            this.followText();
            this.paletteShown = !!e.palette;
            // A reload can change the palette's colours.
            if (Array.isArray(e.colors) && e.colors.length > 0)
                this.paletteColors = e.colors;
            this.updatePalette();
            break;
        case 'pen': {
            if (!this.shown)
                return;
            const point = {x: e.x, y: e.y, pressure: e.pressure || 0};
            this.hover.set(e.device, point);
            const lasers = this.book.lasers.length;
            if (this.state === 'open') {
                const style = Object.assign({}, this.currentStyle);
                if (e.tool === 'eraser')
                    style.tool = 'eraser';
                this.drawSample(this.book.penSample(e.device, style, point, !!e.tip));
            }
            if (this.book.lasers.length > lasers)
                this.expireLaserLater();
            for (const s of this.surfaces)
                s.placeRings();
            break;
        }
        case 'proximity':
            if (e.state !== 'in') {
                this.hover.delete(e.device);
                const lasers = this.book.lasers.length;
                if (this.book.endStroke(e.device))
                    this.redrawLive();
                if (this.book.lasers.length > lasers)
                    this.expireLaserLater();
                for (const s of this.surfaces)
                    s.placeRings();
            }
            break;
        }
    }

    expireLaserLater() {
        GLib.timeout_add(GLib.PRIORITY_DEFAULT, LASER_LIFETIME_MS, () => {
            if (this.book && this.book.expireOldestLaser())
                this.redrawLive();
            return GLib.SOURCE_REMOVE;
        });
    }

    // Left out of a snapshot: the palette, the hover rings, the open-canvas sign and the laser.
    setChromeHidden(hidden) {
        this.help.dismiss();
        const live = hidden ? this.book.liveStrokes.filter(s => s.style.tool !== 'laser') : this.liveInk();
        for (const s of this.surfaces) {
            s.setChromeHidden(hidden);
            s.setLive(live);
            s.flush();
        }
    }

    // What StrokeBook.penSample said a sample changed, on the screen.
    drawSample(change) {
        this.followText();
        if (change === 'redrawLive') {
            this.redrawLive();
        } else if (change) {
            const live = this.liveInk();
            for (const s of this.surfaces) {
                s.liveSegment(...change.segment, live);
                s.flush();
            }
        }
    }

    // The live strokes and the text being typed.
    liveInk() {
        return this.book.liveStrokes.concat(this.typing.strokes());
    }

    // A text tap places the caret; another tool, or the canvas closing, ends the text.
    followText() {
        this.typing.follow(this.book, this.currentStyle, this.shown && this.state === 'open');
    }

    redrawLive() {
        const live = this.liveInk();
        for (const s of this.surfaces) {
            s.setLive(live);
            s.flush();
        }
    }

    fetchStrokes() {
        if (this.fetching) {
            this.fetchAgain = true;
            return;
        }
        this.fetching = true;
        const rebuild = this.rebuildOnNextFetch;
        this.rebuildOnNextFetch = false;
        const from = fetchFrom(this.book.finished.length, rebuild);
        this.link.request('strokes', {from}, result => {
            this.fetching = false;
            const strokes = wholeDrawing(this.book.finished, result.from, result.count, result.strokes.map(s => ({
                device: s.device,
                style: makeStyle(s.tool, s.color, s.width),
                points: s.points.map(p => ({x: p[0], y: p[1], pressure: p[2]})),
                text: s.text,
                size: s.size,
            })));
            if (strokes === null) {
                // Strokes went meanwhile: the whole drawing, drawn afresh.
                this.rebuildOnNextFetch = true;
                this.fetchStrokes();
                return;
            }
            const {finished, liveChanged} = this.book.reconcile(strokes, rebuild);
            // Each tile repainted once, for the finished and the live strokes' changes.
            const live = this.liveInk();
            for (const s of this.surfaces) {
                if (finished === 'rebuild')
                    s.setFinished(this.book.finished);
                else if (finished !== 'unchanged')
                    s.addFinished(this.book.finished.slice(finished[0], finished[1]));
                if (liveChanged)
                    s.setLive(live);
                s.flush();
            }
            log_(`strokes: ${strokes.length}`);
            if (this.fetchAgain) {
                this.fetchAgain = false;
                this.fetchStrokes();
            }
        });
    }

    // ------------------------------------------------------------ showing and hiding

    follow(state) {
        this.state = state;
        this.followText();
        if (state === 'opening') {
            this.show(true);
            // A reload sends no event for [canvas] indicator nor pointer: asked again at each opening.
            this.link.request('status', {}, result => {
                this.setIndicator(result?.canvas?.indicator || 'frame');
                this.setPointerDraws(result?.canvas?.pointer);
            });
        } else if (state === 'open') {
            this.show(false);
        } else if (state === 'minimizing') {
            this.hide(true);
        } else if (this.shown) {
            this.hideNow();
        }
    }

    show(ack) {
        const already = this.shown;
        this.shown = true;
        this.keys.grab();
        this.updateReactive();
        let pending = this.surfaces.length;
        if (already && this.surfaces.every(s => s.box.opacity === 255 && s.box.visible)) {
            if (ack)
                this.ack();
            return;
        }
        if (!already)
            log_('presented');
        for (const s of this.surfaces) {
            s.setShown(true);
            s.box.show();
            s.box.ease({
                opacity: 255, duration: FADE_MS, mode: Clutter.AnimationMode.LINEAR,
                onStopped: () => {
                    if (--pending === 0 && this.shown) {
                        log_('shown');
                        if (ack)
                            this.ack();
                    }
                },
            });
        }
        if (this.surfaces.length === 0 && ack)
            this.ack();
    }

    hide(ack) {
        if (!this.shown) {
            if (ack)
                this.ack();
            return;
        }
        let pending = this.surfaces.length;
        for (const s of this.surfaces) {
            s.box.ease({
                opacity: 0, duration: FADE_MS, mode: Clutter.AnimationMode.LINEAR,
                onStopped: () => {
                    if (--pending === 0)
                        this.hideNow(ack);
                },
            });
        }
        if (this.surfaces.length === 0)
            this.hideNow(ack);
    }

    hideNow(ack = false) {
        this.shown = false;
        this.help.dismiss();
        // The daemon's minimize ended the mouse's and the finger's strokes: their recorded strokes replace them.
        this.pointer.release();
        if ([SOURCE_DEVICES.pointer, SOURCE_DEVICES.touch].map(d => this.book.endStroke(d)).some(Boolean))
            this.redrawLive();
        for (const s of this.surfaces) {
            s.box.remove_all_transitions();
            s.box.opacity = 0;
            s.box.hide();
            s.setShown(false);
        }
        this.keys.ungrab();
        this.updateReactive();
        log_('hidden');
        if (ack)
            this.ack();
    }

    // ------------------------------------------------------------ the mouse and touch

    // A point of the canvas's own stroke, drawn at once as a pen sample is; `tip` false ends it.
    pointerStroke(source, point, tip) {
        const device = SOURCE_DEVICES[source];
        const lasers = this.book.lasers.length;
        this.drawSample(this.book.penSample(device, Object.assign({}, this.currentStyle), point, true));
        // A text tool's click lifts as a pen's tap does, so the next click places a new caret.
        if (!tip && this.book.textDown.has(device))
            this.book.penSample(device, Object.assign({}, this.currentStyle), point, false);
        if (!tip && this.book.endStroke(device))
            this.redrawLive();
        if (this.book.lasers.length > lasers)
            this.expireLaserLater();
    }

    // Thrown away (a second finger): it leaves the live strokes, and the daemon's
    // drawing comes back whole, since the book would wait for a stroke that will not
    // come; fetched once the daemon took the `cancel`, which ends what `strokes` lists.
    cancelPointerStroke(source) {
        this.book.endStroke(SOURCE_DEVICES[source]);
        this.draws.after(() => {
            this.rebuildOnNextFetch = true;
            this.fetchStrokes();
        });
    }

    ack() {
        log_('ack');
        this.link.request('ack', {});
    }

    // ------------------------------------------------------------ input

    setCapturesPen(captures) {
        if (captures === this.capturesPen)
            return;
        this.capturesPen = captures;
        this.updateReactive();
    }

    // `status`'s canvas.pointer: absent from a daemon before `draw`, which takes no pointer strokes.
    setPointerDraws(setting) {
        const draws = setting === 'draw';
        if (draws === this.pointerDraws)
            return;
        this.pointerDraws = draws;
        log_(`[canvas] pointer = ${draws ? 'draw' : 'pass'}`);
        this.updateReactive();
    }

    // As on X11 and sway: with `[canvas] pointer = "draw"` the open canvas takes
    // the pointer to draw with it; with "pass", in filter mode (the daemon
    // captures the pen) the pointer goes through, and in observe mode the open
    // canvas takes it, so a stroke does not also click the applications under it.
    // Click-through always lets it through. mutter picks the actor under the
    // pointer again only when it moves.
    updateReactive() {
        const reactive = this.shown && !this.clickThrough && (this.pointerDraws || !this.capturesPen);
        for (const s of this.surfaces)
            s.box.reactive = reactive;
        log_(reactive ? 'takes pointer input' : 'click-through');
    }
}
