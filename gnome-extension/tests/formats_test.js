// SPDX-License-Identifier: MIT
// Both built formats load outside GNOME Shell: each extension.js is evaluated
// with the Shell's modules stood in for (plain objects; GLib, Gio and Cairo are
// gjs's own), which parses it and runs its top level (spec, constants, classes,
// in the order build.sh joined them), then its entry point gives the canvas.
// Nothing is enabled: that needs the Shell (Tests/overlay/gnome_shell_test.py).
// Usage: gjs -m formats_test.js OUT   (OUT as given to build.sh; run.sh runs it)
import Cairo from 'cairo';
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import System from 'system';

const [out] = System.programArgs;
if (!out) {
    printerr('usage: gjs -m formats_test.js OUT');
    System.exit(64);
}
const uuid = 'stylus-canvas@stylusd';
const read = path => new TextDecoder().decode(GLib.file_get_contents(path)[1]);
const failures = [];
let passed = 0;

async function check(what, body) {
    try {
        await body();
        passed++;
    } catch (e) {
        failures.push(`${what}: ${e}${e.stack ? `\n${e.stack}` : ''}`);
    }
}

function expectCanvas(canvas, what) {
    for (const method of ['enable', 'disable'])
        if (typeof canvas?.[method] !== 'function')
            throw new Error(`${what} has no ${method}()`);
}

// GNOME 43-44: a script run with `imports` (the Shell's, stood in for), defining init().
await check('43/extension.js', () => {
    const text = read(`${out}/43/${uuid}/extension.js`);
    const imports = {gi: {GLib, Gio, St: {}, Clutter: {}, Meta: {}, Shell: {}}, cairo: Cairo, ui: {main: {}},
        misc: {config: {PACKAGE_VERSION: '43.9'}}};
    // eslint-disable-next-line no-new-func
    const init = new Function('imports', `${text}\nreturn init;`)(imports);
    expectCanvas(init(), 'init()');
});

// GNOME 45+: an ES module; the Shell's resource:// modules and its typelibs
// (St, Clutter, Meta, Shell) are stand-in modules beside a copy of it.
await check('45/extension.js', async () => {
    const dir = GLib.dir_make_tmp('stylus-formats-XXXXXX');
    const write = (name, text) => GLib.file_set_contents(`${dir}/${name}`, text);
    write('stub.js', 'export default {};\n');
    write('main.js', 'export const layoutManager = {};\n');
    write('extension.js', 'export class Extension {}\n');
    write('config.js', "export const PACKAGE_VERSION = '48.7';\n");
    const text = read(`${out}/45/${uuid}/extension.js`)
        .replace(/'gi:\/\/(St|Clutter|Meta|Shell)'/g, "'./stub.js'")
        .replace("'resource:///org/gnome/shell/ui/main.js'", "'./main.js'")
        .replace("'resource:///org/gnome/shell/extensions/extension.js'", "'./extension.js'")
        .replace("'resource:///org/gnome/shell/misc/config.js'", "'./config.js'");
    if (/resource:|gi:\/\/(St|Clutter|Meta|Shell)'/.test(text))
        throw new Error('an import of the Shell is left that this test does not stand in for');
    write('canvas.js', text);
    try {
        const module = await import(`file://${dir}/canvas.js`);
        const Canvas = module.default;
        if (typeof Canvas !== 'function')
            throw new Error('no default export class');
        expectCanvas(Canvas.prototype, 'the default export');
    } finally {
        for (const name of ['stub.js', 'main.js', 'extension.js', 'config.js', 'canvas.js'])
            Gio.File.new_for_path(`${dir}/${name}`).delete(null);
        Gio.File.new_for_path(dir).delete(null);
    }
});

for (const f of failures)
    printerr(`FAIL ${f}`);
print(`formats_test: ${passed} passed, ${failures.length} failed`);
System.exit(failures.length === 0 ? 0 : 1);
