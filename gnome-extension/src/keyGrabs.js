// SPDX-License-Identifier: MIT
// The canvas's keys inside GNOME Shell: Escape minimizes; every other key of
// the canvas's key table (canvas-spec.json's `keys`, and every plain letter and
// digit, which `[canvas.keys]` may bind) goes to the daemon as a `key` command,
// and the daemon, which owns the table, performs what it is bound to. They are
// grabbed only while the canvas shows, so the desktop keeps them the rest of
// the time.
import Meta from 'gi://Meta';
import Shell from 'gi://Shell';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';

import {log_} from './daemonLink.js';
import {SPEC} from './spec.js';

// Key names (CanvasKeyName) whose accelerator key is not the name itself.
const ACCELERATOR_KEYS = {
    escape: 'Escape', delete: 'Delete', backspace: 'BackSpace', return: 'Return', tab: 'Tab', space: 'space',
    insert: 'Insert', home: 'Home', end: 'End', pageup: 'Page_Up', pagedown: 'Page_Down',
    up: 'Up', down: 'Down', left: 'Left', right: 'Right',
};
const MODIFIERS = {ctrl: '<Control>', alt: '<Alt>', super: '<Super>', shift: '<Shift>'};
// Keysyms typed with Shift on common layouts (+ is Shift+= on a US keyboard): mutter
// matches a grab with its modifiers, so these are grabbed with <Shift> as well.
const SHIFTED = new Set(['plus', 'question', 'asterisk', 'exclam', 'at', 'numbersign', 'dollar', 'percent', 'asciicircum',
    'ampersand', 'parenleft', 'parenright', 'underscore', 'colon', 'less', 'greater', 'braceleft', 'braceright', 'bar', 'asciitilde', 'quotedbl']);

// "ctrl+shift+z" -> "<Control><Shift>z"; "plus" -> "plus" (the keysym's name), "f1" -> "F1".
function accelerator(name) {
    const parts = name.split('+');
    const key = parts.pop();
    const keysym = ACCELERATOR_KEYS[key] ?? (/^f[0-9]+$/.test(key) ? key.toUpperCase() : key);
    return parts.map(m => MODIFIERS[m]).join('') + keysym;
}

function canvasKeyNames() {
    const names = new Set([...Object.keys(SPEC.keys), ...SPEC.help.keys]);
    for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789')
        names.add(c);
    return [...names];
}

export class KeyGrabs {
    // `request(cmd, fields)` is called with the daemon command a grabbed key stands for;
    // `help(name)` first, which is true when the help overlay took the key (showed or hid).
    constructor(request, help = () => false) {
        this.request = request;
        this.help = help;
        this.grabbed = [];
        this.activatedId = global.display.connect('accelerator-activated', (display, action) => this.activated(action));
    }

    grab() {
        if (this.grabbed.length > 0)
            return;
        for (const name of canvasKeyNames()) {
            const keys = accelerator(name);
            const forms = SHIFTED.has(keys) ? [keys, `<Shift>${keys}`] : [keys];
            for (const form of forms) {
                const action = global.display.grab_accelerator(form, Meta.KeyBindingFlags.NONE);
                if (action === Meta.KeyBindingAction.NONE) {
                    log_(`cannot grab ${form}`);
                    continue;
                }
                Main.wm.allowKeybinding(Meta.external_binding_name_for_action(action), Shell.ActionMode.ALL);
                this.grabbed.push({action, name});
            }
        }
    }

    ungrab() {
        for (const {action} of this.grabbed)
            global.display.ungrab_accelerator(action);
        this.grabbed = [];
    }

    destroy() {
        this.ungrab();
        global.display.disconnect(this.activatedId);
    }

    // Grabs last only while the canvas shows, so a key that arrives is one of ours.
    activated(action) {
        const key = this.grabbed.find(a => a.action === action);
        if (!key || this.help(key.name))
            return;
        log_(`key ${key.name}: asking stylusd`);
        if (key.name === 'escape')
            this.request('minimize', {});
        else
            this.request('key', {key: key.name});
    }
}
