// SPDX-License-Identifier: MIT
// The help overlay on one monitor, as stylus-canvas draws it (InkLayers+Help.swift):
// a panel where helpLayout.js puts it, the spec's text font with cairo's toy API.
// Its own actor over the ink, so no export ever holds it.
import St from 'gi://St';
import Cairo from 'cairo';

import {log_} from './daemonLink.js';
import {HELP, HELP_FONT, defaultKeyTable, helpLayout, helpLines} from './helpLayout.js';
import {parseColor} from './style.js';

export class HelpOverlay {
    constructor(box, monitor) {
        this.box = box;
        this.monitor = monitor;
        this.area = null;
    }

    // `lines` ([[keys, label], …]) shows the help; null hides it.
    set(lines) {
        this.destroy();
        if (!lines)
            return;
        const layout = helpLayout(lines.length, this.monitor.width, this.monitor.height);
        const [x, y, width, height] = layout.panel;
        this.area = new St.DrawingArea({x, y, width, height, reactive: false});
        this.area.connect('repaint', a => {
            const cr = a.get_context();
            drawHelpPanel(cr, lines, layout, x, y);
            cr.$dispose();
        });
        this.box.add_child(this.area);
    }

    destroy() {
        this.area?.destroy();
        this.area = null;
    }
}

function helpSource(cr, hex, alpha) {
    const [r, g, b] = parseColor(hex);
    cr.setSourceRGBA(r, g, b, alpha);
}

// Drawn in the area's own pixels: the panel's corner (x0, y0) is its origin.
function drawHelpPanel(cr, lines, layout, x0, y0) {
    const [, , w, h] = layout.panel;
    const r = HELP.cornerRadius * layout.scale;
    cr.newPath();
    cr.arc(w - r, r, r, -Math.PI / 2, 0);
    cr.arc(w - r, h - r, r, 0, Math.PI / 2);
    cr.arc(r, h - r, r, Math.PI / 2, Math.PI);
    cr.arc(r, r, r, Math.PI, 3 * Math.PI / 2);
    cr.closePath();
    helpSource(cr, HELP.panelColor, HELP.panelOpacity);
    cr.fill();
    cr.setFontSize(HELP.fontSize * layout.scale);
    cr.selectFontFace(HELP_FONT, Cairo.FontSlant.NORMAL, Cairo.FontWeight.BOLD);
    helpSource(cr, HELP.titleColor, 1);
    cr.moveTo(layout.title[0] - x0, layout.title[1] - y0);
    cr.showText(HELP.title);
    lines.forEach(([keys, label], i) => {
        const [keyX, labelX, baseline] = layout.rows[i];
        cr.selectFontFace(HELP_FONT, Cairo.FontSlant.NORMAL, Cairo.FontWeight.BOLD);
        helpSource(cr, HELP.keyColor, 1);
        cr.moveTo(keyX - x0, baseline - y0);
        cr.showText(keys);
        cr.selectFontFace(HELP_FONT, Cairo.FontSlant.NORMAL, Cairo.FontWeight.NORMAL);
        helpSource(cr, HELP.actionColor, 1);
        cr.moveTo(labelX - x0, baseline - y0);
        cr.showText(label);
    });
}

// The help on every monitor of the canvas: F1 or ? shows it while the canvas is open,
// any key or click hides it (and does nothing else), and so do a minimize and a
// snapshot. The table is the daemon's (`status` canvas.keys, with `[canvas.keys]`);
// the spec's defaults show at once, so the help answers without the daemon.
export class CanvasHelp {
    // `owner`: surfaces (each with box and monitor), shown, state, link.
    constructor(owner) {
        this.owner = owner;
        this.overlays = [];
    }

    get shown() {
        return this.overlays.length > 0;
    }

    // A grabbed key by name: true when the help took it.
    key(name) {
        if (this.dismiss())
            return true;
        if (!HELP.keys.includes(name) || !this.owner.shown || this.owner.state !== 'open')
            return false;
        this.show(helpLines(defaultKeyTable()));
        this.owner.link.request('status', {}, result => {
            const keys = result?.canvas?.keys;
            if (this.shown && Array.isArray(keys))
                this.show(helpLines(keys.map(k => [k.key, k.action])));
        });
        return true;
    }

    show(lines) {
        if (!this.shown)
            log_('help shown');
        this.destroyOverlays();
        this.overlays = this.owner.surfaces.map(s => new HelpOverlay(s.box, s.monitor));
        for (const o of this.overlays)
            o.set(lines);
    }

    // Hides the help; false when it was not shown.
    dismiss() {
        if (!this.shown)
            return false;
        log_('help hidden');
        this.destroyOverlays();
        return true;
    }

    destroyOverlays() {
        for (const o of this.overlays)
            o.destroy();
        this.overlays = [];
    }
}
