// SPDX-License-Identifier: MIT
// `snapshot` and `copy` on GNOME, as the daemon passes them on (a `share` event
// on the canvas topic, answered with `shared`): the Shell sees the screen and
// holds the clipboard, the daemon neither. A snapshot is the monitor as the user
// sees it with the ink, less what is only there to draw with (the palette, hover
// rings, the laser, the open-canvas sign), which are left out of the capture and
// come back after it; a copied drawing is the very PNG `export` writes, asked of
// the daemon into a private file that goes at once.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import Shell from 'gi://Shell';
import St from 'gi://St';

import {log_} from './daemonLink.js';
import {pngSize, temporaryBeside} from './pngFile.js';

function holdOnClipboard(bytes) {
    St.Clipboard.get_default().set_content(St.ClipboardType.CLIPBOARD, 'image/png', bytes);
}

// The index of the monitor a connector (`HDMI-1`) drives, or -1.
function monitorForConnector(name) {
    const backend = global.backend ?? Meta.get_backend();
    return backend.get_monitor_manager().get_monitor_for_connector(name);
}

export class ScreenShare {
    // `canvas`: the controller (stylusCanvas.js): its link, state, surfaces and setChromeHidden().
    constructor(canvas) {
        this.canvas = canvas;
    }

    answer(e) {
        log_(`share ${e.request}: ${e.what}`);
        const reply = fields => this.canvas.link.request('shared', Object.assign({request: e.request}, fields),
            () => log_(`share ${e.request}: answered`));
        const fail = message => {
            log_(`share ${e.request}: ${message}`);
            reply({error: message});
        };
        try {
            if (e.what === 'copy-drawing')
                this.copyDrawing(e, reply, fail);
            else if (e.what === 'snapshot' || e.what === 'copy-snapshot')
                this.snapshot(e, reply, fail);
            else
                fail(`the GNOME extension knows no share "${e.what}"`);
        } catch (error) {
            fail(`the GNOME extension failed: ${error.message}`);
        }
    }

    copyDrawing(e, reply, fail) {
        const path = GLib.build_filenamev([GLib.get_user_runtime_dir(),
            `stylus-canvas-copy-${e.request}-${GLib.get_monotonic_time()}.png`]);
        const fields = {path};
        if (e.width > 0 && e.height > 0)
            Object.assign(fields, {width: e.width, height: e.height});
        const sent = this.canvas.link.request('export', fields, result => {
            let data;
            try {
                data = GLib.file_get_contents(path)[1];
            } catch (error) {
                fail(`cannot read the exported drawing ${path}: ${error.message}`);
                return;
            } finally {
                GLib.unlink(path);
            }
            holdOnClipboard(new GLib.Bytes(data));
            log_(`clipboard: image/png, ${data.length} bytes`);
            reply({width: result.width, height: result.height, scene: 'ink'});
        }, reason => fail(`the drawing could not be exported: ${reason}`));
        if (!sent)
            log_(`share ${e.request}: stylusd is gone`);
    }

    snapshot(e, reply, fail) {
        const canvas = this.canvas;
        if (canvas.state !== 'open' || !canvas.shown) {
            fail('the canvas is not open: a snapshot is of the open canvas over the screen');
            return;
        }
        let surface = canvas.surfaces[0];
        if (e.monitor) {
            const index = monitorForConnector(e.monitor);
            surface = canvas.surfaces.find(s => s.monitor.index === index);
            if (!surface) {
                fail(index < 0 ? `no monitor "${e.monitor}"` : `the canvas does not cover the monitor "${e.monitor}"`);
                return;
            }
        }
        if (!surface) {
            fail('the canvas covers no monitor');
            return;
        }
        if (e.what === 'snapshot' && !e.path) {
            fail('the daemon named no file for the snapshot');
            return;
        }
        const m = surface.monitor;
        const stream = Gio.MemoryOutputStream.new_resizable();
        canvas.setChromeHidden(true);
        new Shell.Screenshot().screenshot_area(m.x, m.y, m.width, m.height, stream, (shot, result) => {
            canvas.setChromeHidden(false);
            try {
                shot.screenshot_area_finish(result);
                stream.close(null);
            } catch (error) {
                fail(`GNOME Shell took no screenshot: ${error.message}`);
                return;
            }
            const bytes = stream.steal_as_bytes();
            const size = pngSize(bytes.get_data());
            if (!size) {
                fail('GNOME Shell\'s screenshot is not a PNG');
                return;
            }
            const [width, height] = size;
            if (e.what === 'copy-snapshot') {
                holdOnClipboard(bytes);
                log_(`clipboard: image/png, ${bytes.get_size()} bytes`);
                reply({width, height, scene: 'screen'});
                return;
            }
            const reason = this.replaceFile(e.path, bytes);
            if (reason)
                fail(`cannot write ${e.path}: ${reason}`);
            else
                reply({path: e.path, width, height, scene: 'screen'});
        });
    }

    // Written beside it, then renamed over it: a failure leaves the old file as it was. Null, or why not.
    replaceFile(path, bytes) {
        const temporary = Gio.File.new_for_path(temporaryBeside(path, GLib.uuid_string_random()));
        try {
            temporary.replace_contents(bytes.get_data(), null, false, Gio.FileCreateFlags.NONE, null);
            temporary.move(Gio.File.new_for_path(path), Gio.FileCopyFlags.OVERWRITE, null, null);
            return null;
        } catch (error) {
            try {
                temporary.delete(null);
            } catch (_) {
                // Never made.
            }
            return error.message;
        }
    }
}
