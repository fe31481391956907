// SPDX-License-Identifier: MIT
// pngFile.js, what the share answers read of a PNG: its size from the header
// (held to a PNG that Cairo writes), and the temporary name a snapshot is
// written to before the rename.
// Usage: gjs -m png_test.js MODULES   (MODULES: build.sh's OUT/modules; run.sh runs it)
import Cairo from 'cairo';
import GLib from 'gi://GLib';
import System from 'system';

const [modulesDir] = System.programArgs;
const {pngSize, temporaryBeside} = await import(`file://${GLib.canonicalize_filename(`${modulesDir}/pngFile.js`, null)}`);

const failures = [];
const expect = (ok, what) => ok || failures.push(what);

const dir = GLib.dir_make_tmp('stylus-png-XXXXXX');
const path = `${dir}/size.png`;
const surface = new Cairo.ImageSurface(Cairo.Format.ARGB32, 321, 123);
surface.writeToPNG(path);
const data = GLib.file_get_contents(path)[1];
GLib.unlink(path);
GLib.rmdir(dir);
expect(JSON.stringify(pngSize(data)) === '[321,123]', `a 321×123 PNG is read as ${JSON.stringify(pngSize(data))}`);
expect(pngSize(data.slice(0, 20)) === null, 'a cut header is read as a size');
expect(pngSize(new TextEncoder().encode('GIF89a and more than twenty-four bytes')) === null, 'a GIF is read as a PNG');
expect(temporaryBeside('/home/u/Pictures/shot.png', 'abc') === '/home/u/Pictures/.shot.png.abc.tmp',
    `the temporary file: ${temporaryBeside('/home/u/Pictures/shot.png', 'abc')}`);

print(`png_test: ${4 - failures.length} passed, ${failures.length} failed`);
for (const f of failures)
    printerr(`FAIL ${f}`);
System.exit(failures.length ? 1 : 0);
