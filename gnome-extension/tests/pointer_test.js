// SPDX-License-Identifier: MIT
// drawStream.js, the pure part of the canvas's mouse and touch strokes: the
// daemon's space a pixel maps to (InkLayers.pixel inverted), which devices are
// a tablet's, the palette's regions, and the `draw` requests' order and
// batching while one is out, as stylus-canvas's PointerStream sends them.
// Usage: gjs -m pointer_test.js MODULES   (MODULES: build.sh's OUT/modules; run.sh runs it)
import GLib from 'gi://GLib';
import System from 'system';

const [modulesDir] = System.programArgs;
if (!modulesDir) {
    printerr('usage: gjs -m pointer_test.js MODULES');
    System.exit(64);
}
const load = name => import(`file://${GLib.canonicalize_filename(`${modulesDir}/${name}.js`, null)}`);
const [draw, {InkLayers}] = await Promise.all(['drawStream', 'inkLayers'].map(load));

let passed = 0;
const failures = [];
function check(ok, what) {
    if (ok)
        passed++;
    else
        failures.push(what);
}
const show = JSON.stringify;
const near = (a, b) => Math.abs(a - b) <= 1e-9;

// A pixel and back: the second of two monitors side by side, 1280 + 1920 wide, 1080 high.
const geometry = {x: 1280, y: 0, width: 3200, height: 1080};
const ink = new InkLayers(geometry);
for (const [px, py] of [[0, 0], [100.5, 200.25], [1919, 1079]]) {
    const [x, y] = draw.daemonPoint(px, py, geometry);
    const [bx, by] = ink.pixel({x, y});
    check(near(bx, px) && near(by, py), `pixel (${px}, ${py}) -> (${x}, ${y}) -> (${bx}, ${by})`);
}
check(show(draw.daemonPoint(0, 540, geometry)) === show([0.4, 0.5]), `the second monitor's left edge: ${show(draw.daemonPoint(0, 540, geometry))}`);
check(show(draw.livePoint([-0.01, 1.2])) === show({x: 0, y: 1, pressure: 1}), `a point off the canvas: ${show(draw.livePoint([-0.01, 1.2]))}`);

// A tablet's tools are not drawn; the mouse, touchpad and touchscreen are.
for (const type of ['TABLET_DEVICE', 'PEN_DEVICE', 'ERASER_DEVICE', 'CURSOR_DEVICE'])
    check(draw.fromTablet(type, false, 'Wacom'), `${type} is drawn by the canvas`);
for (const type of ['POINTER_DEVICE', 'TOUCHPAD_DEVICE', 'TOUCHSCREEN_DEVICE'])
    check(!draw.fromTablet(type, false, 'Logitech Mouse'), `${type} is taken for a tablet`);
check(draw.fromTablet('POINTER_DEVICE', true, 'Wacom'), 'an event with a tablet tool is drawn by the canvas');
check(draw.fromTablet('POINTER_DEVICE', false, 'Wacom Intuos Pen (stylusd)'), 'the daemon\'s clone is drawn by the canvas');

// The palette's regions, edges included as the daemon's contains() has them.
const regions = [{x: 0.1, y: 0.8, width: 0.05, height: 0.1}];
check(draw.onRegions([0.1, 0.8], regions) && draw.onRegions([0.15, 0.9], regions), 'a region\'s corners are not on it');
check(!draw.onRegions([0.16, 0.85], regions) && !draw.onRegions([0.5, 0.5], []), 'a point off the regions is on them');

// One request out at a time; moves that pile up meanwhile go as one, per source, at most 1024 points.
const sent = [];
const stream = new draw.DrawStream((request, done) => sent.push({request: JSON.parse(JSON.stringify(request)), done}));
stream.push('pointer', 'down', [[0.1, 0.1]], 0.5);
for (let i = 0; i < 1030; i++)
    stream.push('pointer', 'move', [[0.1 + i / 10000, 0.2]]);
stream.push('pointer', 'up', [[0.3, 0.3]]);
stream.push('touch', 'down', [[0.5, 0.5]], 0.5);
stream.push('touch', 'cancel', []);
check(sent.length === 1 && show(sent[0].request) === show({source: 'pointer', phase: 'down', points: [[0.1, 0.1]], aspect: 0.5}),
    `before an answer: ${show(sent.map(s => s.request))}`);
const phases = [];
while (sent.length > 0) {
    const {request, done} = sent.shift();
    phases.push(`${request.source} ${request.phase} ${request.points.length}`);
    done();
}
check(show(phases) === show(['pointer down 1', 'pointer move 1024', 'pointer move 6', 'pointer up 1', 'touch down 1', 'touch cancel 0']),
    `the requests: ${show(phases)}`);
// after(): once what was pushed before is answered, not sooner.
let called = 0;
stream.push('touch', 'cancel', []);
stream.after(() => called++);
check(called === 0 && sent.length === 1, `after() ran before the cancel was answered: ${called}`);
sent.shift().done();
check(called === 1 && sent.length === 0, `after() ran ${called} times once the cancel was answered`);
stream.after(() => called++);
check(called === 2, 'after() with nothing out did not run at once');
stream.push('pointer', 'down', [[0.1, 0.1]], 0.5);
stream.reset();
stream.push('pointer', 'move', [[0.2, 0.2]]);
check(sent.length === 2 && sent[1].request.phase === 'move', `after a reset nothing waits for the lost answer: ${show(sent.map(s => s.request))}`);

print(`pointer_test: ${passed} passed, ${failures.length} failed`);
for (const f of failures)
    printerr(`FAIL ${f}`);
System.exit(failures.length ? 1 : 0);
