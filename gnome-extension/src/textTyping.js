// SPDX-License-Identifier: MIT
// Typing a text in GNOME Shell with the text tool, as stylus-canvas's
// X11Canvas+Text.swift does on X11: a click or a pen tap (StrokeBook's textTap)
// places the caret; typed keys build the text live (textEntry.js), Enter starts
// a line, Backspace takes one back; Escape or the next tap elsewhere ends it and
// sends the `text` command, whose stroke then comes back with the drawing.
// While a text is typed the shell holds the keyboard (a modal grab on the
// canvas) and the canvas's key grabs are let go, so a letter types rather than
// picks a tool, and Escape ends the text rather than minimizing. The keys go to
// an editable ClutterText at the caret (imeEntry.js), so that the input method
// (IBus in GNOME Shell) composes text as in any entry: what it commits, and a
// plain key it does not take, arrive there as text; Escape, Enter and Backspace
// come here once it let them through, in their place among its commits, and
// shortcuts at once unless it is composing.
import Clutter from 'gi://Clutter';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';

import {log_} from './daemonLink.js';
import {ImeEntry} from './imeEntry.js';
import {makeStyle} from './style.js';
import {TextEntry, keysymText} from './textEntry.js';

const KEYSYM_RETURN = 0xff0d, KEYSYM_KP_ENTER = 0xff8d, KEYSYM_BACKSPACE = 0xff08, KEYSYM_ESCAPE = 0xff1b;

export class TextTyping {
    // `owner`: actor() the actor that takes the keyboard; ink() its InkLayers (where a point is
    // drawn on it); keys the canvas's KeyGrabs;
    // shown() whether the canvas shows (its grabs come back then); send(fields) the `text`
    // command; shortcut(name) a key with Ctrl, Alt or Super for the daemon's key table
    // (`ctrl+z`); changed() the live ink to draw again.
    constructor(owner) {
        this.owner = owner;
        this.entry = null;
        this.tapsSeen = 0;
        this.grab = null;
    }

    // After each pen or pointer sample: a new tap with the text tool ends the text being
    // typed and places the caret there. `open`: the canvas is open and shows; closed or
    // with another tool, the entry ends (sent only while open: the daemon takes texts then).
    follow(book, style, open) {
        if (!open || style.tool !== 'text') {
            this.end(open);
            this.tapsSeen = book.textTaps;
            return;
        }
        if (book.textTaps === this.tapsSeen || !book.textTap)
            return;
        this.tapsSeen = book.textTaps;
        this.end(true);
        this.entry = new TextEntry(book.textTap, style);
        this.takeKeyboard();
        this.owner.changed();
    }

    // The entry as live strokes: its words and the caret, drawn by inkLayers.js as a text is.
    strokes() {
        if (!this.entry)
            return [];
        const e = this.entry;
        return [{device: -1, style: makeStyle('text', e.color, 8), points: [Object.assign({pressure: 1}, e.anchor)],
            text: e.string, size: e.size, caret: true}];
    }

    // Ends the entry: its text sent when `keep`, the keyboard given back.
    end(keep) {
        const entry = this.entry;
        this.entry = null;
        this.giveKeyboardBack();
        if (!entry)
            return;
        const fields = keep ? entry.request() : null;
        if (fields) {
            log_(`text: ${[...fields.text].length} characters at (${fields.x}, ${fields.y})`);
            this.owner.send(fields);
        }
        this.owner.changed();
    }

    takeKeyboard() {
        if (this.grab)
            return;
        const actor = this.owner.actor();
        if (!actor)
            return;
        this.owner.keys.ungrab();
        const modal = Main.pushModal(actor);
        const input = new ImeEntry(actor, typed => this.typed(typed), event => this.key(event));
        this.grab = {modal, input};
        this.placeInput();
        input.focus();
    }

    giveKeyboardBack() {
        if (!this.grab)
            return;
        const {modal, input} = this.grab;
        this.grab = null;
        // The key focus goes back first, so the input method is told it left the text.
        Main.popModal(modal);
        input.destroy();
        if (this.owner.shown())
            this.owner.keys.grab();
    }

    // The ClutterText at the caret, where the preedit shows and the input method's candidates go.
    placeInput() {
        const ink = this.owner.ink?.();
        if (!this.grab || !this.entry || !ink)
            return;
        const [x, y] = ink.pixel(this.entry.anchor);
        this.grab.input.place(x, y, ink.textPixels({size: this.entry.size}), this.entry.color, this.entry.string.split('\n'));
    }

    changed() {
        this.placeInput();
        this.owner.changed();
    }

    // Text from the input method, or a key it let through, typed as ClutterText would insert it.
    typed(text) {
        if (this.entry?.type(text))
            this.changed();
    }

    // A key the input method let through (or a shortcut while it is not composing): true when it
    // was taken here (not text: Escape, Enter, Backspace, a shortcut); false lets ClutterText type it.
    key(event) {
        if (!this.entry)
            return false;
        const keysym = event.get_key_symbol();
        const shortcut = event.get_state() & (Clutter.ModifierType.CONTROL_MASK | Clutter.ModifierType.MOD1_MASK | Clutter.ModifierType.SUPER_MASK);
        if (keysym === KEYSYM_ESCAPE) {
            this.end(true);
            return true;
        }
        if (shortcut) {
            // As on X11: a shortcut still does its action while a text is typed.
            const typed = keysymText(keysym);
            if (typed && /^[!-~]$/.test(typed)) {
                const M = Clutter.ModifierType, state = event.get_state();
                const held = [[M.CONTROL_MASK, 'ctrl'], [M.MOD1_MASK, 'alt'], [M.SUPER_MASK, 'super'], [M.SHIFT_MASK, 'shift']];
                this.owner.shortcut([...held.filter(([mask]) => state & mask).map(([, name]) => name), typed.toLowerCase()].join('+'));
            }
            return true;
        }
        if (keysym === KEYSYM_RETURN || keysym === KEYSYM_KP_ENTER)
            this.entry.newLine();
        else if (keysym === KEYSYM_BACKSPACE)
            this.entry.backspace();
        else
            return false;
        this.changed();
        return true;
    }
}
