// SPDX-License-Identifier: MIT
// The canvas's keys inside GNOME Shell: Escape minimizes, Ctrl+Z undoes,
// Ctrl+Shift+Z and Ctrl+Y redo. They are grabbed only while the canvas shows,
// so the desktop keeps them the rest of the time; a key asks the daemon, which
// alone decides the canvas's state.
import Meta from 'gi://Meta';
import Shell from 'gi://Shell';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';

import {log_} from './daemonLink.js';

const CANVAS_KEYS = [['Escape', 'minimize'], ['<Control>z', 'undo'], ['<Control><Shift>z', 'redo'], ['<Control>y', 'redo']];

export class KeyGrabs {
    // `request(what)` is called with the daemon command a grabbed key stands for.
    constructor(request) {
        this.request = request;
        this.grabbed = [];
        this.activatedId = global.display.connect('accelerator-activated', (display, action) => this.activated(action));
    }

    grab() {
        if (this.grabbed.length > 0)
            return;
        for (const [keys, what] of CANVAS_KEYS) {
            const action = global.display.grab_accelerator(keys, Meta.KeyBindingFlags.NONE);
            if (action === Meta.KeyBindingAction.NONE) {
                log_(`cannot grab ${keys}`);
                continue;
            }
            Main.wm.allowKeybinding(Meta.external_binding_name_for_action(action), Shell.ActionMode.ALL);
            this.grabbed.push({action, what});
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
        if (!key)
            return;
        log_(`a key: asking stylusd to ${key.what}`);
        this.request(key.what);
    }
}
