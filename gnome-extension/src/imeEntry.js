// SPDX-License-Identifier: MIT
// The input method's way into a text typed with the text tool (textTyping.js):
// an editable ClutterText at the caret holding the keyboard. Its own input-focus
// code talks to the stage's input method (GNOME Shell's IBus), which JavaScript
// cannot do on Shell 43 (an InputFocus subclass gets no callbacks there, and an
// IM_COMMIT event's text cannot be read). What lands in it, committed by the
// input method or typed as a plain key, is handed on at once and cleared; it
// only ever shows the input method's preedit (with its cursor), in the text's
// font, colour and size where the next character goes. Not underlined: St's text
// attributes replace the underline ClutterText gives a preedit, and one asked of
// St (text-decoration) was in the layout but not drawn on Shell 43.
// IBus answers a key later (asynchronously): what it commits, and a key it lets
// through, come back through the stage's event queue in the order the keys went
// in. So Enter, Backspace and Escape go to it as letters do and are acted on when
// they come back; one acted on at once could overtake a letter still in IBus
// ("ab" Enter typed "a\nb"). Only shortcuts (Ctrl, Alt, Super) are taken at once.
import Cairo from 'cairo';
import Clutter from 'gi://Clutter';
import GLib from 'gi://GLib';
import St from 'gi://St';

import {TEXT, textBaseline} from './inkLayers.js';

// Pango's units per pixel (Pango.SCALE), a constant of its API.
const PANGO_SCALE = 1024;

// A context to measure with, made on first use.
let measuring = null;

// A line's advance with the canvas's text font, as inkLayers.js measures the caret's place.
function advance(line, size) {
    if (!line)
        return 0;
    measuring ??= new Cairo.Context(new Cairo.ImageSurface(Cairo.Format.ARGB32, 1, 1));
    measuring.selectFontFace(TEXT.font, Cairo.FontSlant.NORMAL, Cairo.FontWeight.NORMAL);
    measuring.setFontSize(size);
    return measuring.textExtents(line).xAdvance;
}

// ClutterText's own action on Backspace (its key bindings' pool and the action's name).
const BINDINGS = 'ClutterText', DELETE_PREVIOUS = 'delete-prev';

// A key with Ctrl, Alt or Super: a shortcut, which the input method does not type.
function isShortcut(event) {
    const M = Clutter.ModifierType;
    return (event.get_state() & (M.CONTROL_MASK | M.MOD1_MASK | M.SUPER_MASK)) !== 0;
}

export class ImeEntry {
    // `parent`: the actor under the keyboard grab; typed(text) gets what the input method
    // committed or a key typed; key(event) gets a key the input method let through (or, with
    // none, a key as it comes), a shortcut at once, and returns true when it took the key (one
    // that is not text).
    constructor(parent, typed, key) {
        this.typed = typed;
        this.key = key;
        this.clearId = 0;
        this.blocked = false;
        this.unblockId = 0;
        // The key handed to ClutterText (and so to the input method) in this key's emission.
        this.handedOn = null;
        this.label = new St.Label({name: 'stylus-canvas-ime'});
        const text = this.label.clutter_text;
        text.editable = true;
        // Enter that ClutterText acts on itself (no input method, or one that declined it at once)
        // comes as its `activate`.
        text.activatable = true;
        // Clutter gives an event only to reactive actors, the key focus too.
        text.reactive = true;
        // The pointer on it is the canvas's, as anywhere else (a tap ends the text or draws).
        for (const signal of ['button-press-event', 'button-release-event', 'motion-event', 'touch-event'])
            text.connect(signal, (t, event) => parent.event(event, false) || Clutter.EVENT_STOP);
        // Emitted before the text changes, with what is inserted: a commit or a typed key.
        text.connect('insert-text', (t, inserted) => this.inserted(inserted));
        // Connected handlers run before ClutterText's own, which gives the key to the input
        // method (or types it); those connected after see what it declined.
        text.connect('key-press-event', (t, event) => this.keyPressed(t, event));
        text.connect_after('key-press-event', (t, event) => this.declined(event));
        text.connect('activate', () => this.declined(this.handedOn));
        this.label.connect('destroy', () => this.unblock());
        parent.add_child(this.label);
    }

    keyPressed(text, event) {
        this.handedOn = null;
        const fromInputMethod = event.get_flags() & Clutter.EventFlags.INPUT_METHOD;
        // While it composes, every key is the input method's; one it lets through comes back.
        if (!fromInputMethod && (text.has_preedit() || !isShortcut(event))) {
            if (!text.has_preedit()) {
                this.handedOn = event;
                // Declined at once, Backspace would be ClutterText's (deleting nothing: it holds
                // no text) unless its action is held back while ClutterText handles this key.
                if (event.get_key_symbol() === Clutter.KEY_BackSpace)
                    this.block();
            }
            return Clutter.EVENT_PROPAGATE;
        }
        return this.key(event) ? Clutter.EVENT_STOP : Clutter.EVENT_PROPAGATE;
    }

    // A key handed on that ClutterText did not type, the input method did not take at once and
    // did not keep for later: acted on now, in its place among the keys.
    declined(event) {
        this.unblock();
        const handedOn = this.handedOn;
        this.handedOn = null;
        return handedOn && this.key(event) ? Clutter.EVENT_STOP : Clutter.EVENT_PROPAGATE;
    }

    // Held back for as short as can be, as the pool is every ClutterText's: given back once
    // ClutterText declined the key, or else before the main loop runs anything else.
    block() {
        Clutter.BindingPool.find(BINDINGS).block_action(DELETE_PREVIOUS);
        this.blocked = true;
        this.unblockId ||= GLib.idle_add(GLib.PRIORITY_HIGH, () => {
            this.unblockId = 0;
            this.unblock();
            return GLib.SOURCE_REMOVE;
        });
    }

    unblock() {
        if (this.unblockId)
            GLib.source_remove(this.unblockId);
        this.unblockId = 0;
        if (this.blocked)
            Clutter.BindingPool.find(BINDINGS).unblock_action(DELETE_PREVIOUS);
        this.blocked = false;
    }

    // The keyboard's focus, which also makes ClutterText focus the input method: editable, it
    // calls clutter_input_method_focus_in when the key focus comes.
    focus() {
        this.label.clutter_text.grab_key_focus();
    }

    // At the caret of `lines` drawn with its first line's top left at (x, y) in `parent`'s pixels,
    // `size` pixels, in `color`: the preedit's baseline on the last line's, starting after it.
    place(x, y, size, color, lines) {
        const last = lines[lines.length - 1];
        const style = `font-family: "${TEXT.font}"; font-size: ${size.toFixed(2)}px; color: ${color}; ` +
            'padding: 0; margin: 0; border: 0; background-color: transparent;';
        // The same for the whole text: styled once, not at each key.
        if (this.label.get_style() !== style) {
            this.label.set_style(style);
            this.label.ensure_style();
        }
        const ascent = this.label.clutter_text.get_layout().get_baseline() / PANGO_SCALE;
        this.label.set_position(Math.round(x + advance(last, size)), Math.round(y + textBaseline(lines.length - 1, size) - ascent));
        // ClutterText tells the input method where its cursor is (for the candidates' window) when
        // it paints a cursor that changed within it, not when it moves: a cursor a pixel wider or
        // narrower makes it tell from here. Its cursor, in the text's colour, lies on the canvas's
        // caret, and shows where the preedit's is while composing.
        const text = this.label.clutter_text;
        text.cursor_size = text.cursor_size === 2 ? 3 : 2;
    }

    destroy() {
        if (this.clearId)
            GLib.source_remove(this.clearId);
        this.clearId = 0;
        this.label.destroy();
    }

    inserted(text) {
        if (!text)
            return;
        this.typed(text);
        // Cleared once ClutterText has inserted it (after this signal), before the next frame.
        if (!this.clearId) {
            this.clearId = GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
                this.clearId = 0;
                this.label.clutter_text.set_text('');
                return GLib.SOURCE_REMOVE;
            });
        }
    }
}
