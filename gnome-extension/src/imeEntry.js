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

export class ImeEntry {
    // `parent`: the actor under the keyboard grab; typed(text) gets what the input method
    // committed or a key typed; key(event) is offered every key first, except while the input
    // method composes, and returns true when it took the key (one that is not text).
    constructor(parent, typed, key) {
        this.typed = typed;
        this.clearId = 0;
        this.label = new St.Label({name: 'stylus-canvas-ime'});
        const text = this.label.clutter_text;
        text.editable = true;
        // Clutter gives an event only to reactive actors, the key focus too.
        text.reactive = true;
        // The pointer on it is the canvas's, as anywhere else (a tap ends the text or draws).
        for (const signal of ['button-press-event', 'button-release-event', 'motion-event', 'touch-event'])
            text.connect(signal, (t, event) => parent.event(event, false) || Clutter.EVENT_STOP);
        // Emitted before the text changes, with what is inserted: a commit or a typed key.
        text.connect('insert-text', (t, inserted) => this.inserted(inserted));
        // Connected handlers run before ClutterText's own, which gives the key to the input
        // method (or types it), so only what is not taken here reaches it.
        text.connect('key-press-event', (t, event) => {
            const fromInputMethod = event.get_flags() & Clutter.EventFlags.INPUT_METHOD;
            if (!fromInputMethod && t.has_preedit())
                return Clutter.EVENT_PROPAGATE;
            return key(event) ? Clutter.EVENT_STOP : Clutter.EVENT_PROPAGATE;
        });
        parent.add_child(this.label);
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
