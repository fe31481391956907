// SPDX-License-Identifier: MIT
// The test suite's hands and eyes inside a headless GNOME Shell 43, which
// refuses its D-Bus screenshot API to ordinary callers and has no input
// devices: a line-per-command Unix socket at $XDG_RUNTIME_DIR/stylus-test-helper.sock.
//   ready            -> "ready" once the shell finished starting (the overview hidden)
//   screenshot PATH  -> "ok" once PATH holds a PNG of the whole screen
//   move X Y         -> "ok" after the virtual pointer moved there
//   click X Y        -> "ok" after a left click there
//   drag X1 Y1 X2 Y2 STEPS -> "ok" after a left-button drag in STEPS moves, one a frame
//   touch X1 Y1 X2 Y2 STEPS [second] -> "ok" after a one-finger drag on a virtual touchscreen;
//                       with `second`, a second finger lands halfway and both lift at the end
//   clipboard PATH   -> "ok" once PATH holds the clipboard's image/png (St.Clipboard), "empty" without one
//   key NAME         -> "ok" after a press and release of the key (a Clutter keyval name: Escape),
//                       with modifiers held around it when named before it: ctrl+shift+z
//   unsafe on|off    -> "ok" once the shell's unsafe mode is so (its org.gnome.Shell.Eval answers only in it)
//   place CLASS X Y W H -> "ok" once the window of that WM class (a Wayland app id) has that frame (or up to 40 px smaller: a client's size steps)
const {GLib, Gio, Clutter, Shell, St} = imports.gi;
const Main = imports.ui.main;

class TestHelper {
    enable() {
        const seat = Clutter.get_default_backend().get_default_seat();
        this.pointer = seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
        this.keyboard = seat.create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
        this.touchscreen = seat.create_virtual_device(Clutter.InputDeviceType.TOUCHSCREEN_DEVICE);
        const path = GLib.build_filenamev([GLib.get_user_runtime_dir(), 'stylus-test-helper.sock']);
        GLib.unlink(path);
        this.service = new Gio.SocketService();
        this.service.add_address(Gio.UnixSocketAddress.new(path), Gio.SocketType.STREAM, Gio.SocketProtocol.DEFAULT, null);
        this.service.connect('incoming', (service, connection) => {
            this.serve(connection, Gio.DataInputStream.new(connection.get_input_stream()));
            return true;
        });
        this.service.start();
        this.startedId = 0;
        if (Main.layoutManager._startingUp)
            this.startedId = Main.layoutManager.connect('startup-complete', () => Main.overview.hide());
        else
            Main.overview.hide();
    }

    disable() {
        this.service.stop();
        if (this.startedId)
            Main.layoutManager.disconnect(this.startedId);
    }

    // step(1) … step(steps), one a frame, then done() once the shell handled them.
    steps(steps, step, done) {
        let i = 0;
        GLib.timeout_add(GLib.PRIORITY_DEFAULT, 16, () => {
            step(++i);
            if (i < steps)
                return GLib.SOURCE_CONTINUE;
            GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
                done();
                return GLib.SOURCE_REMOVE;
            });
            return GLib.SOURCE_REMOVE;
        });
    }

    serve(connection, input) {
        input.read_line_async(GLib.PRIORITY_DEFAULT, null, (stream, result) => {
            const [line] = stream.read_line_finish_utf8(result);
            if (line === null) {
                connection.close(null);
                return;
            }
            this.run(line.trim().split(' '), answer => {
                connection.get_output_stream().write_all(new TextEncoder().encode(`${answer}\n`), null);
                this.serve(connection, input);
            });
        });
    }

    run([command, ...args], answer) {
        const now = () => GLib.get_monotonic_time();
        try {
            switch (command) {
            case 'ready':
                answer(Main.layoutManager._startingUp || Main.overview.visible ? 'starting' : 'ready');
                break;
            case 'unsafe':
                global.context.unsafe_mode = args[0] === 'on';
                answer('ok');
                break;
            case 'screenshot': {
                const file = Gio.File.new_for_path(args[0]);
                const stream = file.replace(null, false, Gio.FileCreateFlags.NONE, null);
                new Shell.Screenshot().screenshot(false, stream, (shot, result) => {
                    try {
                        shot.screenshot_finish(result);
                        stream.close(null);
                        answer('ok');
                    } catch (e) {
                        answer(`error ${e.message}`);
                    }
                });
                break;
            }
            case 'move':
            case 'click':
                this.pointer.notify_absolute_motion(now(), Number(args[0]), Number(args[1]));
                if (command === 'click') {
                    this.pointer.notify_button(now(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
                    this.pointer.notify_button(now(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
                }
                // Answered after the shell handled the events (they queue in the same main loop).
                GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
                    answer('ok');
                    return GLib.SOURCE_REMOVE;
                });
                break;
            case 'drag': {
                const [x1, y1, x2, y2, steps] = args.map(Number);
                this.pointer.notify_absolute_motion(now(), x1, y1);
                this.pointer.notify_button(now(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
                this.steps(steps, i => this.pointer.notify_absolute_motion(now(), x1 + (x2 - x1) * i / steps, y1 + (y2 - y1) * i / steps), () => {
                    this.pointer.notify_button(now(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
                    answer('ok');
                });
                break;
            }
            case 'touch': {
                const [x1, y1, x2, y2, steps] = args.slice(0, 5).map(Number);
                const second = args[5] === 'second';
                const at = i => [x1 + (x2 - x1) * i / steps, y1 + (y2 - y1) * i / steps];
                this.touchscreen.notify_touch_down(now(), 0, x1, y1);
                this.steps(steps, i => {
                    this.touchscreen.notify_touch_motion(now(), 0, ...at(i));
                    if (second && i === Math.floor(steps / 2))
                        this.touchscreen.notify_touch_down(now(), 1, x1 + 40, y1 + 40);
                }, () => {
                    this.touchscreen.notify_touch_up(now(), 0);
                    if (second)
                        this.touchscreen.notify_touch_up(now(), 1);
                    answer('ok');
                });
                break;
            }
            case 'clipboard':
                St.Clipboard.get_default().get_content(St.ClipboardType.CLIPBOARD, 'image/png', (clipboard, bytes) => {
                    const data = bytes?.get_data();
                    if (!data || data.length === 0) {
                        answer('empty');
                        return;
                    }
                    GLib.file_set_contents(args[0], data);
                    answer('ok');
                });
                break;
            case 'key': {
                const modifiers = {ctrl: 'Control_L', shift: 'Shift_L', alt: 'Alt_L'};
                const names = args[0].split('+').map(name => modifiers[name] ?? name);
                const keyvals = names.map(name => Clutter[`KEY_${name}`]);
                if (keyvals.some(keyval => keyval === undefined)) {
                    answer(`error unknown key ${args[0]}`);
                    break;
                }
                for (const keyval of keyvals)
                    this.keyboard.notify_keyval(now(), keyval, Clutter.KeyState.PRESSED);
                for (const keyval of keyvals.reverse())
                    this.keyboard.notify_keyval(now(), keyval, Clutter.KeyState.RELEASED);
                GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
                    answer('ok');
                    return GLib.SOURCE_REMOVE;
                });
                break;
            }
            case 'place': {
                const [x, y, width, height] = args.slice(1).map(Number);
                const window = global.get_window_actors().map(actor => actor.get_meta_window())
                    .find(w => w.get_wm_class() === args[0]);
                if (!window) {
                    answer(`error no window ${args[0]}`);
                    break;
                }
                window.move_resize_frame(true, x, y, width, height);
                // Answered once the frame is there: the client's new size takes a round trip. A terminal
                // keeps to its character grid (foot 1.20 under GNOME 48 took 697 of 700 rows of pixels):
                // up to 40 pixels short of each side is the size asked for.
                let tries = 0;
                const near = (got, want) => got <= want && got > want - 40;
                GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
                    const r = window.get_frame_rect();
                    if ((r.x === x && r.y === y && near(r.width, width) && near(r.height, height)) || ++tries > 100) {
                        answer(tries > 100 ? `error the frame is ${r.x} ${r.y} ${r.width} ${r.height}` : 'ok');
                        return GLib.SOURCE_REMOVE;
                    }
                    return GLib.SOURCE_CONTINUE;
                });
                break;
            }
            default:
                answer(`error unknown command ${command}`);
            }
        } catch (e) {
            answer(`error ${e.message}`);
        }
    }
}

function init() {
    return new TestHelper();
}
