// SPDX-License-Identifier: MIT
// strokesTail.js: a canvas asks for the strokes from the last it holds on and
// joins them to those before, as stylus-canvas's StrokesTail does.
// Usage: gjs -m strokes_tail_test.js MODULES   (MODULES: build.sh's OUT/modules; run.sh runs it)
import GLib from 'gi://GLib';
import System from 'system';

const [modulesDir] = System.programArgs;
const {fetchFrom, wholeDrawing} = await import(`file://${GLib.canonicalize_filename(`${modulesDir}/strokesTail.js`, null)}`);

const failures = [];
const expect = (ok, what) => ok || failures.push(what);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

expect(fetchFrom(3, false) === 2 && fetchFrom(0, false) === 0 && fetchFrom(5, true) === 0, 'the index asked from');
expect(same(wholeDrawing(['a', 'b', 'c'], 2, 4, ['c', 'd']), ['a', 'b', 'c', 'd']), 'the tail follows the strokes before its index');
expect(same(wholeDrawing(['a', 'b'], undefined, undefined, ['x']), ['x']), 'an answer without from is the whole drawing');
expect(wholeDrawing(['a', 'b', 'c'], 2, 1, []) === null, 'a drawing shorter than the index asked needs the whole');
expect(wholeDrawing(['a'], 2, 3, ['c']) === null, 'held strokes that do not reach the index need the whole');

print(`strokes_tail_test: ${5 - failures.length} passed, ${failures.length} failed`);
for (const f of failures)
    printerr(`FAIL ${f}`);
System.exit(failures.length ? 1 : 0);
