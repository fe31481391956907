// SPDX-License-Identifier: MIT
// textEntry.js against CanvasModel's TextEntry (Tests/CanvasModelTests/TextEntryTests.swift,
// case for case): typed keys, Enter and Backspace make the `text` command; what the daemon
// would refuse is never typed; keysyms type their characters.
// Usage: gjs -m text_entry_test.js MODULES   (MODULES: build.sh's OUT/modules; run.sh runs it)
import GLib from 'gi://GLib';
import System from 'system';

const [modulesDir] = System.programArgs;
if (!modulesDir) {
    printerr('usage: gjs -m text_entry_test.js MODULES');
    System.exit(64);
}
const load = name => import(`file://${GLib.canonicalize_filename(`${modulesDir}/${name}.js`, null)}`);
const [{SPEC}, {TextEntry, keysymText}] = await Promise.all(['spec', 'textEntry'].map(load));

let passed = 0;
const failures = [];
function check(ok, what) {
    if (ok)
        passed++;
    else
        failures.push(what);
}
const show = JSON.stringify;
const style = {tool: 'text', color: '#4e9a06', width: 12};

// Typed keys, Enter and Backspace make the text command.
let entry = new TextEntry({x: 0.3, y: 0.4}, style);
check(entry.request() === null, 'nothing typed: nothing to keep');
entry.type('Hellp');
check(entry.backspace(), 'Backspace took nothing back');
entry.type('o');
entry.newLine();
entry.type('wörld ✓');
check(show(entry.request()) === show({text: 'Hello\nwörld ✓', x: 0.3, y: 0.4, size: 36, color: '#4e9a06'}),
    `the request: ${show(entry.request())}`);
check(entry.lineCount === 2, `${entry.lineCount} lines`);
// A character with a combining mark goes as one, as the user sees it.
entry.type('e\u0301');
entry.backspace();
check(entry.string === 'Hello\nwörld ✓', `Backspace after e + combining acute: ${show(entry.string)}`);
entry.type('😀');
entry.backspace();
check(entry.string === 'Hello\nwörld ✓', `Backspace after an emoji (two UTF-16 units): ${show(entry.string)}`);

// What the daemon would refuse is never typed.
entry = new TextEntry({x: 1.02, y: -0.01}, style);
check(!entry.type('\t\u001b\u007f\u0085'), 'control characters were typed');
entry.type('  ');
check(entry.request() === null, 'blanks alone are nothing to keep');
for (let i = 0; i < 60; i++)
    entry.newLine();
check(entry.lineCount === SPEC.text.maxLines, `${entry.lineCount} lines, at most ${SPEC.text.maxLines}`);
entry.type('x'.repeat(2000));
check(entry.length === SPEC.text.maxLength, `${entry.length} characters, at most ${SPEC.text.maxLength}`);
const clamped = entry.request();
check(clamped && clamped.x === 1 && clamped.y === 0, `an anchor a hair off the edge is clamped onto it: ${show(clamped && [clamped.x, clamped.y])}`);
check(!new TextEntry({x: 0.5, y: 0.5}, style).backspace(), 'Backspace on nothing');
check(new TextEntry({x: 0.5, y: 0.5}, {color: '#000000', width: 1}).size === SPEC.text.sizeRange[0], 'a thin width gives the smallest size');
check(new TextEntry({x: 0.5, y: 0.5}, {color: '#000000', width: 64}).size === 192, 'width 64: size 192');

// Keysyms type their characters.
for (const [keysym, want] of [[0x41, 'A'], [0x21, '!'], [0x20, ' '], [0xe9, 'é'], [0x10020ac, '€'], [0xffb7, '7'], [0xffab, '+'],
    [0xff0d, null], [0xff1b, null], [0xffe1, null], [0x100d800, null]])
    check(keysymText(keysym) === want, `keysym 0x${keysym.toString(16)}: ${show(keysymText(keysym))}, not ${show(want)}`);

print(`text_entry_test: ${passed} passed, ${failures.length} failed`);
for (const f of failures)
    printerr(`FAIL ${f}`);
System.exit(failures.length ? 1 : 0);
