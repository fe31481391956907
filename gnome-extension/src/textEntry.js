// SPDX-License-Identifier: MIT
// CanvasModel's TextEntry, rule for rule: a text being typed on the open canvas
// with the text tool. A click or a pen tap placed its caret (`anchor`, in the
// daemon's space); the colour and size are the style's when it began. Enter
// starts a new line, Backspace takes back a character, and Escape or a click
// elsewhere ends it: `request()` is then the `text` command's fields (null when
// nothing but blanks was typed). The limits are the daemon's (canvas-spec.json's
// `text`), so what is typed is never refused.
import {SPEC} from './spec.js';

const ENTRY_TEXT = SPEC.text;

// A character the daemon refuses in a text: a control character but the newline.
function isEntryControl(code) {
    return code !== 0x0a && (code < 0x20 || (code >= 0x7f && code <= 0x9f));
}

// CanvasModel's StrokeText.size(forWidth:): clamp(widthFactor × width, sizeRange).
export function entrySize(width) {
    return Math.min(Math.max(width * ENTRY_TEXT.widthFactor, ENTRY_TEXT.sizeRange[0]), ENTRY_TEXT.sizeRange[1]);
}

export class TextEntry {
    // `anchor` {x, y} in the daemon's space; `style` {color, width}.
    constructor(anchor, style) {
        this.anchor = {x: anchor.x, y: anchor.y};
        this.string = '';
        this.color = style.color;
        this.size = entrySize(style.width);
    }

    // Unicode scalars, as the daemon counts a text's length.
    get length() {
        return [...this.string].length;
    }

    get lineCount() {
        return this.string.split('\n').length;
    }

    // Adds typed text at the end; control characters and what would pass a limit are
    // dropped. True when anything was added.
    type(typed) {
        let added = false;
        let length = this.length, lines = this.lineCount;
        for (const ch of typed) {
            const code = ch.codePointAt(0);
            if (code === 0x0a) {
                if (lines >= ENTRY_TEXT.maxLines)
                    continue;
            } else if (isEntryControl(code)) {
                continue;
            }
            if (length >= ENTRY_TEXT.maxLength)
                break;
            this.string += ch;
            length++;
            if (code === 0x0a)
                lines++;
            added = true;
        }
        return added;
    }

    // Enter: a new line (none past the limit).
    newLine() {
        return this.type('\n');
    }

    // Backspace: the last character as the user sees it goes: its last code point with
    // the combining marks after it (gjs before Intl.Segmenter has no grapheme clusters).
    // False when there was none.
    backspace() {
        if (this.string === '')
            return false;
        this.string = this.string.replace(/[\s\S][\p{M}\u200d\ufe0e\ufe0f]*$/u, '');
        return true;
    }

    // The `text` command's fields that keep it; null when there is nothing to keep.
    request() {
        if (this.string === '' || /^[ \n]*$/.test(this.string))
            return null;
        const clamp = v => Math.min(Math.max(v, 0), 1);
        if (!Number.isFinite(this.anchor.x) || !Number.isFinite(this.anchor.y))
            return null;
        return {text: this.string, x: clamp(this.anchor.x), y: clamp(this.anchor.y), size: this.size, color: this.color};
    }
}

// The printable text of an X keysym (Clutter's key symbols are X's): Latin-1 directly,
// Unicode keysyms (0x1000000 + code point), the keypad's digits and operators; null for
// a key that types nothing here.
export function keysymText(keysym) {
    let code = null;
    if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff))
        code = keysym;
    else if (keysym >= 0x1000100 && keysym <= 0x110ffff)
        code = keysym - 0x1000000;
    else if (keysym >= 0xffb0 && keysym <= 0xffb9)
        code = keysym - 0xffb0 + 0x30;
    else if (keysym === 0xff80)
        code = 0x20;
    else if (keysym >= 0xffaa && keysym <= 0xffaf)
        code = [0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f][keysym - 0xffaa];
    else if (keysym === 0xffbd)
        code = 0x3d;
    if (code === null || (code >= 0xd800 && code <= 0xdfff))
        return null;
    return String.fromCodePoint(code);
}
