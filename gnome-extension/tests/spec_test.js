// SPDX-License-Identifier: MIT
// The extension's pure modules held to Sources/CanvasModel/canvas-spec.json, as
// Tests/CanvasModelTests/CanvasSpecTests.swift holds the Swift model: the
// constants they draw with, then every vector (widths, palette, paletteRegions,
// strokeBook), each read the way the Swift test reads it. A failure names the
// vector and what the JavaScript gives instead.
// Usage: gjs -m spec_test.js MODULES SPEC   (MODULES: build.sh's OUT/modules; run.sh runs it)
import GLib from 'gi://GLib';
import System from 'system';

const [modulesDir, specPath] = System.programArgs;
if (!modulesDir || !specPath) {
    printerr('usage: gjs -m spec_test.js MODULES SPEC');
    System.exit(64);
}
const load = name => import(`file://${GLib.canonicalize_filename(`${modulesDir}/${name}.js`, null)}`);
const [{SPEC}, style, {LASER_LIFETIME_MS, StrokeBook}, palette, board, indicator] =
    await Promise.all(['spec', 'style', 'strokeBook', 'palette', 'board', 'indicator'].map(load));
const help = await load('helpLayout');
const spec = JSON.parse(new TextDecoder().decode(GLib.file_get_contents(specPath)[1]));

let passed = 0;
const failures = [];
function check(ok, what) {
    if (ok)
        passed++;
    else
        failures.push(what);
}
const near = (a, b) => typeof a === 'number' && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const show = JSON.stringify;

// ---------------------------------------------------------------- the constants

const c = spec.constants;
check(same(SPEC, c), `spec.js is not the spec's constants: ${show(SPEC)}`);
const constants = [
    ['REFERENCE_WIDTH', style.REFERENCE_WIDTH, c.referenceWidth],
    ['DEFAULT_TOOL', style.DEFAULT_TOOL, c.defaultStyle.tool],
    ['DEFAULT_COLOR', style.DEFAULT_COLOR, c.defaultStyle.color],
    ['DEFAULT_WIDTH', style.DEFAULT_WIDTH, c.defaultStyle.width],
    ['makeStyle()', style.makeStyle(), c.defaultStyle],
    ['PRESSURE_FLOOR', style.PRESSURE_FLOOR, c.width.pressureFloor],
    ['ERASER_WIDTH_FACTOR', style.ERASER_WIDTH_FACTOR, c.width.eraserFactor],
    ['HIGHLIGHTER_WIDTH_FACTOR', style.HIGHLIGHTER_WIDTH_FACTOR, c.width.highlighterFactor],
    ['HIGHLIGHTER_OPACITY', style.HIGHLIGHTER_OPACITY, c.width.highlighterOpacity],
    ['SHAPE_WIDTH_FACTOR', style.SHAPE_WIDTH_FACTOR, c.width.shapeFactor],
    ['TOOLS', style.TOOLS, c.tools],
    ['SHAPES', style.SHAPES, c.shapes],
    ['tools drawn whole', style.TOOLS.filter(style.drawsWhole), c.drawsWhole],
    ['LASER_LIFETIME_MS', LASER_LIFETIME_MS, c.timings.laserLifetimeMilliseconds],
    ['DEFAULT_PALETTE', palette.DEFAULT_PALETTE, c.palette.colors],
    ['PALETTE_SIDE_SHARE', palette.PALETTE_SIDE_SHARE, c.palette.shareOfShorterSide],
    ['PALETTE_SIDE_MIN', palette.PALETTE_SIDE_MIN, c.palette.sideMin],
    ['PALETTE_SIDE_MAX', palette.PALETTE_SIDE_MAX, c.palette.sideMax],
    ['PALETTE_MARGIN_SHARE', palette.PALETTE_MARGIN_SHARE, c.palette.marginShare],
    ['PALETTE_PAD_SHARE', palette.PALETTE_PAD_SHARE, c.palette.backgroundPadShare],
    ['PALETTE_GLYPH_INSET_SHARE', palette.PALETTE_GLYPH_INSET_SHARE, c.palette.glyphInsetShare],
    ['BOARD_WHITE', board.BOARD_WHITE, c.board.white],
    ['BOARD_BLACK', board.BOARD_BLACK, c.board.black],
    ['BOARD_GRID_PAPER', board.BOARD_GRID_PAPER, c.board.gridPaper],
    ['BOARD_GRID_LINE', board.BOARD_GRID_LINE, c.board.gridLine],
    ['BOARD_GRID_SPACING', board.BOARD_GRID_SPACING, c.board.gridSpacing],
    ['BOARD_GRID_LINE_WIDTH', board.BOARD_GRID_LINE_WIDTH, c.board.gridLineWidth],
    ['INDICATOR_FRAME_WIDTH', indicator.INDICATOR_FRAME_WIDTH, c.indicator.frameWidth],
    ['INDICATOR_FRAME_OPACITY', indicator.INDICATOR_FRAME_OPACITY, c.indicator.frameOpacity],
    ['INDICATOR_BADGE_RADIUS', indicator.INDICATOR_BADGE_RADIUS, c.indicator.badgeRadius],
    ['INDICATOR_BADGE_INSET', indicator.INDICATOR_BADGE_INSET, c.indicator.badgeInset],
    ['INDICATOR_BADGE_OUTLINE', indicator.INDICATOR_BADGE_OUTLINE, c.indicator.badgeOutline],
    ['boardPaper(none, white, black, grid, #123abc)', ['none', 'white', 'black', 'grid', '#123ABC'].map(board.boardPaper),
        [null, c.board.white, c.board.black, c.board.gridPaper, '#123abc']],
];
for (const [name, got, want] of constants)
    check(same(got, want), `${name} is ${show(got)}, the spec ${show(want)}`);
// The width rule's floor and shape share, as the Swift test derives them.
const pen = style.makeStyle(), line = style.makeStyle('line');
check(style.referenceWidth(pen, {pressure: 0}, {pressure: 0}) / pen.width === c.width.pressureFloor, 'the width at no pressure is not the floor');
check(style.referenceWidth(line, {pressure: 1}, {pressure: 1}) / line.width === c.width.shapeFactor, 'a shape\'s width is not its share');

// ---------------------------------------------------------------- the vectors

spec.vectors.indicator.forEach((v, n) => {
    const got = indicator.indicatorRects(v.kind, v.width, v.height);
    check(same(got, v.rects), `indicator[${n}] ${show(v)}: the JavaScript gives ${show(got)}`);
});

spec.vectors.boardGrid.forEach((v, n) => {
    const got = board.gridLines(v.origin, v.length, v.areaWidth);
    check(got.length === v.lines.length && got.every((x, i) => near(x, v.lines[i])) && near(board.gridLineWidth(v.areaWidth), v.lineWidth),
        `boardGrid[${n}] ${show(v)}: the JavaScript gives ${show(got)}, width ${board.gridLineWidth(v.areaWidth)}`);
});

spec.vectors.widths.forEach((v, n) => {
    const s = style.makeStyle(v.tool, undefined, v.width);
    const got = style.referenceWidth(s, {pressure: v.pressures[0]}, {pressure: v.pressures[1]});
    check(near(got, v.referenceWidth), `widths[${n}] ${show(v)}: the JavaScript gives ${got}`);
});

spec.vectors.palette.forEach((v, n) => {
    const buttons = palette.paletteButtons(v.colors, v.width, v.height);
    const at = `palette[${n}] ${v.width}x${v.height}`;
    check(buttons.length === v.buttons.length, `${at}: ${buttons.length} buttons, the spec ${v.buttons.length}`);
    v.buttons.forEach((w, i) => {
        const b = buttons[i];
        const value = b && (b.kind === 'color' ? b.color.toLowerCase() : b.tool);
        const wanted = w.kind === 'color' ? w.value.toLowerCase() : w.value;
        check(b && b.kind === w.kind && value === wanted && near(b.x, w.x) && near(b.y, w.y) && near(b.size, w.side),
            `${at}, button ${i + 1}: ${show(w)} but the JavaScript gives ${show(b)}`);
    });
});

spec.vectors.paletteRegions.forEach((v, n) => {
    const buttons = palette.paletteButtons(palette.DEFAULT_PALETTE, v.monitor.width, v.monitor.height);
    const regions = palette.paletteRegions(buttons, v.geometry);
    const at = `paletteRegions[${n}] geometry ${show(v.geometry)}`;
    check(regions.length === v.regions.length, `${at}: ${regions.length} regions, the spec ${v.regions.length}`);
    v.regions.forEach((w, i) => {
        const r = regions[i];
        check(r && near(r.x, w.x) && near(r.y, w.y) && near(r.width, w.width) && near(r.height, w.height) && r.select === w.select,
            `${at}, region ${i + 1}: ${show(w)} but the JavaScript gives ${show(r)}`);
    });
});

const point = ([x, y, pressure]) => ({x, y, pressure});
const inkStyle = s => style.makeStyle(s.tool, s.color, s.width);

// One step of a strokeBook vector on `book`: a message if it fails, else null.
function step(book, s) {
    switch (s.op) {
    case 'pen': {
        const got = book.penSample(s.device, inkStyle(s.style), point(s.point), s.tip);
        let want;
        if (s.expect === 'none')
            want = null;
        else if (s.expect === 'redrawLive')
            want = 'redrawLive';
        else if (s.expect && s.expect.segment)
            want = {segment: [point(s.expect.segment[0]), point(s.expect.segment[1]), inkStyle(s.style)]};
        else
            return `unknown expectation ${show(s.expect)}`;
        return same(got, want) ? null : `the JavaScript gives ${show(got)}, the spec ${show(want)}`;
    }
    case 'reconcile': {
        const strokes = s.strokes.map(t => ({device: 1, style: inkStyle(t.style), points: t.points.map(point)}));
        const got = book.reconcile(strokes, s.rebuild);
        return same(got.finished, s.expect.finished) && got.liveChanged === s.expect.liveChanged
            ? null : `the JavaScript gives ${show(got)}, the spec ${show(s.expect)}`;
    }
    case 'endStroke': {
        const got = book.endStroke(s.device);
        return got === s.expect ? null : `the JavaScript gives ${got}`;
    }
    case 'expireOldestLaser': {
        const got = book.expireOldestLaser();
        return got === s.expect ? null : `the JavaScript gives ${got}`;
    }
    case 'clear':
        book.clear();
        return null;
    case 'state': {
        const got = {
            finished: book.finished.length, liveDone: book.liveDone.length, lasers: book.lasers.length,
            current: [...book.liveCurrent.keys()].sort((a, b) => a - b),
        };
        const ok = Object.keys(got).length === Object.keys(s.expect).length && Object.keys(got).every(k => same(got[k], s.expect[k]));
        return ok ? null : `the book holds ${show(got)}, the spec ${show(s.expect)}`;
    }
    default:
        return 'unknown op';
    }
}

// ---------------------------------------------------------------- texts

const ink = await load('inkLayers');
check(same(ink.TEXT, c.text), `TEXT is not the spec's text: ${show(ink.TEXT)}`);
spec.vectors.text.forEach(v => {
    const size = ink.textSize(v.width);
    check(near(size, v.size), `text ${show(v)}: size ${size}`);
    v.baselines.forEach((want, i) => check(near(ink.textBaseline(i, size), want), `text ${show(v)}: line ${i} at ${ink.textBaseline(i, size)}`));
});
{
    // Drawn as stylus-canvas draws it: ink from the anchor, within the box cover() gives, in its colour.
    const Cairo = (await import('cairo')).default;
    const surface = new Cairo.ImageSurface(Cairo.Format.ARGB32, 400, 200);
    const cr = new Cairo.Context(surface);
    const layers = new ink.InkLayers({x: 0, y: 0, width: 1600, height: 800});
    const stroke = {style: {tool: 'text', color: '#3465a4', width: 8}, points: [{x: 0.0625, y: 0.0625, pressure: 1}], text: 'Hi\nGNOME', size: 40};
    layers.draw(cr, stroke, {x0: 0, y0: 0, x1: 400, y1: 200});
    cr.$dispose();
    const boxes = [];
    layers.cover(stroke, b => boxes.push(b));
    check(boxes.length === 1 && boxes[0].x0 <= 100 && boxes[0].y0 <= 50, `a text's cover: ${show(boxes)}`);
    // GJS's cairo gives no pixels: through a PNG and GdkPixbuf.
    const [fd, file] = GLib.file_open_tmp('stylus-text-XXXXXX.png');
    GLib.close(fd);
    surface.writeToPNG(file);
    const {default: GdkPixbuf} = await import('gi://GdkPixbuf');
    const pixbuf = GdkPixbuf.Pixbuf.new_from_file(file);
    GLib.unlink(file);
    const data = pixbuf.get_pixels();
    {
        const stride = pixbuf.get_rowstride();
        let inked = 0, outside = 0;
        for (let y = 0; y < 200; y++) {
            for (let x = 0; x < 400; x++) {
                if (data[y * stride + 4 * x + 3] < 128)
                    continue;
                inked++;
                if (x < boxes[0].x0 || x > boxes[0].x1 || y < boxes[0].y0 || y > boxes[0].y1 || x < 100 || y < 50)
                    outside++;
            }
        }
        check(inked > 200 && outside === 0, `a text's ink: ${inked} pixels, ${outside} outside its box from the anchor`);
    }
}

spec.vectors.strokeBook.forEach(v => {
    const book = new StrokeBook();
    v.steps.forEach((s, n) => {
        let failure;
        try {
            failure = step(book, s);
        } catch (e) {
            failure = `threw ${e}`;
        }
        check(failure === null, `strokeBook "${v.name}", step ${n + 1} (${s.op}): ${failure}`);
    });
});

// ---------------------------------------------------------------- the help overlay

check(same(help.HELP, c.help) && help.HELP_FONT === c.text.font, 'helpLayout.js does not read the spec\'s help and text font');
check(same(help.defaultKeyTable(), Object.entries(c.keys)), `defaultKeyTable() is not the spec's keys: ${show(help.defaultKeyTable())}`);
spec.vectors.help.forEach((v, n) => {
    const got = help.helpLayout(v.lines, v.width, v.height);
    check(same(got, {panel: v.panel, title: v.title, rows: v.rows, scale: v.scale}), `help[${n}] ${v.width}x${v.height}, ${v.lines} lines: the JavaScript gives ${show(got)}`);
});
spec.vectors.helpLines.forEach((v, n) => {
    const got = help.helpLines(v.table);
    check(same(got, v.lines), `helpLines[${n}]: the JavaScript gives ${show(got)}`);
});

for (const f of failures)
    printerr(`FAIL ${f}`);
print(`spec_test: ${passed} passed, ${failures.length} failed`);
System.exit(failures.length === 0 ? 0 : 1);
