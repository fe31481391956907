// SPDX-License-Identifier: MIT
// stylus-canvas@stylusd: stylusd's canvas drawn inside GNOME Shell, the one
// place on GNOME Wayland that can put see-through ink above every window
// (mutter offers no layer-shell, and xdg-shell makes a transparent fullscreen
// window black). A socket client of stylusd as stylus-canvas is: it follows
// the canvas's state, fetches the strokes, draws the live pen, and acks each
// transition after its fade, and takes the canvas off the screen when the
// daemon is gone.
//
// This file is the logic shared by both extension formats; build.sh wraps it
// with the imports of GNOME 43-44 (imports.gi) or of GNOME 45+ (ES modules),
// which provide GLib, Gio, St, Clutter, Cairo, Meta, Shell and Main.
//
// The ink follows the renderer specification in docs/OVERLAY.md ("How ink is
// drawn"), the same as stylus-canvas's InkLayers, so a stroke looks the same
// on every desktop.

const REFERENCE_WIDTH = 1600;
const DEFAULT_WIDTH = 8;
const DEFAULT_COLOR = '#d61a1c';
const ERASER_WIDTH_FACTOR = 3;
const HIGHLIGHTER_WIDTH_FACTOR = 3;
const HIGHLIGHTER_OPACITY = 0.35;
const SHAPES = ['line', 'arrow', 'rectangle', 'ellipse'];
const TOOLS = ['pen', 'highlighter', 'eraser', 'laser', ...SHAPES];
const FADE_MS = 120;
const LASER_LIFETIME_MS = 1500;
// A daemon restarting (systemd does it at once) comes back well within this;
// one that died must not leave the canvas on the screen for more than 2 s.
const DEAD_DAEMON_HIDE_MS = 1500;
const RING_RADIUS = 7, RING_WIDTH = 3;

function log_(message) {
    if (GLib.getenv('STYLUS_CANVAS_VERBOSE'))
        log(`stylus-canvas@stylusd: [${Math.floor(GLib.get_monotonic_time() / 1000)} ms] ${message}`);
}

function socketPath() {
    const fromEnvironment = GLib.getenv('STYLUSD_SOCKET');
    if (fromEnvironment)
        return fromEnvironment;
    return GLib.build_filenamev([GLib.get_user_runtime_dir(), 'stylusd', 'stylusd.sock']);
}

// ---------------------------------------------------------------- style

function toolNamed(name) {
    return TOOLS.includes(name) ? name : 'pen';
}

function parseColor(hex) {
    const m = /^#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/.exec(hex || '');
    const c = m ? m.slice(1).map(h => parseInt(h, 16) / 255) : [0xd6 / 255, 0x1a / 255, 0x1c / 255];
    return c;
}

function makeStyle(tool, color, width) {
    return {tool: toolNamed(tool), color: color || DEFAULT_COLOR, width: width > 0 ? width : DEFAULT_WIDTH};
}

function sameStyle(a, b) {
    return a.tool === b.tool && a.color === b.color && a.width === b.width;
}

// A segment's width in reference pixels (of a drawing 1600 wide): the pen and
// the laser follow the pressure (8 wide: 0.5 + 7.5 · mean pressure), the eraser
// three times that, the highlighter three times the width, a shape half of it.
function referenceWidth(style, a, b) {
    const pressure = Math.max(0, Math.min(1, (a.pressure + b.pressure) / 2));
    const pressed = style.width * (1 + 15 * pressure) / 16;
    switch (style.tool) {
    case 'eraser': return pressed * ERASER_WIDTH_FACTOR;
    case 'highlighter': return style.width * HIGHLIGHTER_WIDTH_FACTOR;
    case 'line': case 'arrow': case 'rectangle': case 'ellipse': return style.width / 2;
    default: return pressed;
    }
}

function drawsWhole(tool) {
    return tool === 'highlighter' || SHAPES.includes(tool);
}

// ---------------------------------------------------------------- the renderer

// A rectangle of pixels {x0, y0, x1, y1}.
function meets(a, b) {
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// The rule of docs/OVERLAY.md ("How ink is drawn") on one monitor: normalized
// (x, y) lies at (x·W, y·H) of the area the tablet maps to, less the monitor's
// place in it. There are no layers of pixels here: a tile draws the strokes
// that reach it (draw), told where a stroke's ink lies by cover.
class InkLayers {
    constructor(geometry) {
        this.geometry = geometry;
    }

    pixel(p) {
        return [p.x * this.geometry.width - this.geometry.x, p.y * this.geometry.height - this.geometry.y];
    }

    lineWidth(style, a, b) {
        return referenceWidth(style, a, b) * this.geometry.width / REFERENCE_WIDTH;
    }

    // How far from its line a segment's ink reaches: half its width, a pixel of antialiasing and one to spare.
    reach(style, a, b) {
        return this.lineWidth(style, a, b) / 2 + 2;
    }

    // Calls add(box) for boxes that hold all the ink of the line from (ax, ay)
    // to (bx, by) reaching r: one box per piece of at most half a tile, so a
    // long line marks the tiles along it, not every tile of its bounding box.
    coverLine(ax, ay, bx, by, r, add) {
        const pieces = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / (TILE / 2)));
        for (let i = 0; i < pieces; i++) {
            const x0 = ax + (bx - ax) * i / pieces, y0 = ay + (by - ay) * i / pieces;
            const x1 = ax + (bx - ax) * (i + 1) / pieces, y1 = ay + (by - ay) * (i + 1) / pieces;
            add({x0: Math.min(x0, x1) - r, y0: Math.min(y0, y1) - r, x1: Math.max(x0, x1) + r, y1: Math.max(y0, y1) + r});
        }
    }

    coverSegment(a, b, style, add) {
        const [ax, ay] = this.pixel(a), [bx, by] = this.pixel(b);
        this.coverLine(ax, ay, bx, by, this.reach(style, a, b), add);
    }

    // Calls add(box) for boxes that hold all the ink of `stroke`.
    cover(stroke, add) {
        const points = stroke.points, style = stroke.style;
        if (points.length < 2)
            return;
        if (!drawsWhole(style.tool)) {
            for (let i = 1; i < points.length; i++)
                this.coverSegment(points[i - 1], points[i], style, add);
            return;
        }
        const first = points[0], last = points[points.length - 1];
        const width = this.lineWidth(style, first, last), r = width / 2 + 2;
        const [ax, ay] = this.pixel(first), [bx, by] = this.pixel(last);
        switch (style.tool) {
        case 'arrow': {
            const head = Math.min(Math.max(12, 4 * width), Math.hypot(bx - ax, by - ay) / 2) + r;
            add({x0: bx - head, y0: by - head, x1: bx + head, y1: by + head});
        }
        // falls through: the shaft
        case 'line':
            this.coverLine(ax, ay, bx, by, r, add);
            break;
        case 'rectangle':
            this.coverLine(ax, ay, bx, ay, r, add);
            this.coverLine(bx, ay, bx, by, r, add);
            this.coverLine(bx, by, ax, by, r, add);
            this.coverLine(ax, by, ax, ay, r, add);
            break;
        case 'ellipse':
            add({x0: Math.min(ax, bx) - r, y0: Math.min(ay, by) - r, x1: Math.max(ax, bx) + r, y1: Math.max(ay, by) + r});
            break;
        default:    // the highlighter's path
            for (let i = 1; i < points.length; i++) {
                const [x0, y0] = this.pixel(points[i - 1]), [x1, y1] = this.pixel(points[i]);
                this.coverLine(x0, y0, x1, y1, r, add);
            }
        }
    }

    setInk(cr, style) {
        cr.setLineCap(Cairo.LineCap.ROUND);
        cr.setLineJoin(Cairo.LineJoin.ROUND);
        const [r, g, b] = parseColor(style.color);
        if (style.tool === 'eraser') {
            cr.setOperator(Cairo.Operator.CLEAR);
        } else if (style.tool === 'highlighter') {
            cr.setLineCap(Cairo.LineCap.BUTT);
            cr.setSourceRGBA(r, g, b, HIGHLIGHTER_OPACITY);
        } else {
            cr.setSourceRGBA(r, g, b, 1);
        }
    }

    // The ink of `stroke` within `box`, over what `cr` holds: a segment whose ink
    // cannot reach the box is not drawn (the pixels are those of the whole stroke).
    draw(cr, stroke, box) {
        const points = stroke.points, style = stroke.style;
        if (points.length < 2)
            return;
        cr.save();
        this.setInk(cr, style);
        if (drawsWhole(style.tool)) {
            this.drawWhole(cr, stroke, box);
        } else {
            for (let i = 1; i < points.length; i++) {
                const a = points[i - 1], b = points[i];
                const [ax, ay] = this.pixel(a), [bx, by] = this.pixel(b), r = this.reach(style, a, b);
                if (meets(box, {x0: Math.min(ax, bx) - r, y0: Math.min(ay, by) - r, x1: Math.max(ax, bx) + r, y1: Math.max(ay, by) + r}))
                    this.segment(cr, a, b, style);
            }
        }
        cr.restore();
    }

    segment(cr, a, b, style) {
        const [ax, ay] = this.pixel(a), [bx, by] = this.pixel(b);
        cr.setLineWidth(this.lineWidth(style, a, b));
        cr.moveTo(ax, ay);
        cr.lineTo(bx, by);
        cr.stroke();
    }

    // A shape from the first point to the last, or the highlighter's whole
    // path as one stroke (it does not darken where it crosses itself), of
    // which only the part that can reach `box`.
    drawWhole(cr, stroke, box = null) {
        const points = stroke.points, tool = stroke.style.tool;
        const first = points[0], last = points[points.length - 1];
        const width = this.lineWidth(stroke.style, first, last);
        cr.setLineWidth(width);
        const [ax, ay] = this.pixel(first), [bx, by] = this.pixel(last);
        if (tool === 'line' || tool === 'arrow') {
            cr.moveTo(ax, ay);
            cr.lineTo(bx, by);
            const length = Math.hypot(bx - ax, by - ay);
            if (tool === 'arrow' && length > 0) {
                const head = Math.min(Math.max(12, 4 * width), length / 2);
                const angle = Math.atan2(by - ay, bx - ax);
                cr.moveTo(bx - head * Math.cos(angle + 0.5), by - head * Math.sin(angle + 0.5));
                cr.lineTo(bx, by);
                cr.lineTo(bx - head * Math.cos(angle - 0.5), by - head * Math.sin(angle - 0.5));
            }
        } else if (tool === 'rectangle') {
            cr.moveTo(ax, ay);
            cr.lineTo(bx, ay);
            cr.lineTo(bx, by);
            cr.lineTo(ax, by);
            cr.closePath();
        } else if (tool === 'ellipse') {
            cr.save();
            cr.translate((ax + bx) / 2, (ay + by) / 2);
            cr.scale(Math.max(Math.abs(bx - ax) / 2, 0.01), Math.max(Math.abs(by - ay) / 2, 0.01));
            cr.arc(0, 0, 1, 0, 2 * Math.PI);
            cr.restore();
        } else {
            // Only the segments whose ink can reach `box`: where the path leaves
            // and comes back, its joins lie farther from the box than they reach.
            const r = width / 2 + 2;
            let open = false;
            for (let i = 1; i < points.length; i++) {
                const [x0, y0] = this.pixel(points[i - 1]), [x1, y1] = this.pixel(points[i]);
                if (box && !meets(box, {x0: Math.min(x0, x1) - r, y0: Math.min(y0, y1) - r, x1: Math.max(x0, x1) + r, y1: Math.max(y0, y1) + r})) {
                    open = false;
                    continue;
                }
                if (!open)
                    cr.moveTo(x0, y0);
                cr.lineTo(x1, y1);
                open = true;
            }
        }
        cr.stroke();
    }
}

// ---------------------------------------------------------------- the strokes

// The daemon's strokes (the authority) and the live ones drawn from pen
// samples until a `strokes` answer contains them; as CanvasModel's StrokeBook.
class StrokeBook {
    constructor() {
        this.finished = [];
        this.liveDone = [];
        this.liveCurrent = new Map();
        this.lasers = [];
        this.owedDrops = 0;
    }

    // 'unchanged', 'rebuild', or [from, to) of finished to draw over what is there.
    reconcile(strokes, rebuild) {
        const old = this.finished.length;
        const extends_ = !rebuild && strokes.length >= old &&
            (old === 0 || strokes[old - 1].points.length === this.finished[old - 1].points.length);
        let result;
        if (!extends_) {
            result = 'rebuild';
            this.liveDone = [];
        } else if (strokes.length === old) {
            result = 'unchanged';
        } else {
            result = [old, strokes.length];
        }
        const confirmed = extends_ ? strokes.length - old : 0;
        const dropped = Math.min(confirmed, this.liveDone.length);
        this.liveDone.splice(0, dropped);
        this.owedDrops = extends_ ? this.owedDrops + confirmed - dropped : 0;
        this.finished = strokes;
        return {finished: result, liveChanged: dropped > 0 || !extends_};
    }

    clear() {
        this.finished = [];
        this.liveDone = [];
        this.liveCurrent.clear();
        this.lasers = [];
        this.owedDrops = 0;
    }

    // The daemon never records a laser stroke: it leaves 1.5 s after it ended.
    expireOldestLaser() {
        return this.lasers.shift() !== undefined;
    }

    // {segment: [a, b, style]}, 'redrawLive' or null.
    penSample(device, style, point, tip) {
        if (!tip)
            return this.endStroke(device) ? 'redrawLive' : null;
        const stroke = this.liveCurrent.get(device);
        if (stroke && sameStyle(stroke.style, style)) {
            const last = stroke.points[stroke.points.length - 1];
            stroke.points.push(point);
            return drawsWhole(style.tool) ? 'redrawLive' : {segment: [last, point, style]};
        }
        const redraw = this.endStroke(device);
        this.liveCurrent.set(device, {device, style, points: [point]});
        return redraw ? 'redrawLive' : null;
    }

    endStroke(device) {
        const stroke = this.liveCurrent.get(device);
        this.liveCurrent.delete(device);
        if (!stroke || stroke.points.length < 2)
            return false;
        if (stroke.style.tool === 'laser') {
            this.lasers.push(stroke);
            return false;
        }
        if (this.owedDrops > 0) {
            this.owedDrops--;
            return true;
        }
        this.liveDone.push(stroke);
        return false;
    }

    get liveStrokes() {
        return [...this.liveDone, ...this.lasers, ...[...this.liveCurrent.keys()].sort((a, b) => a - b).map(k => this.liveCurrent.get(k))];
    }
}

// ---------------------------------------------------------------- the palette

// CanvasModel's PaletteLayout, number for number, so the palette sits where
// stylus-canvas puts it: one row in the bottom-left corner of a monitor, the
// colours, the tools, width - and +; a button's side 4.5 % of the monitor's
// shorter side (24-64 px), half a side of margin around the row and its groups.
const DEFAULT_PALETTE = ['#d61a1c', '#f57900', '#edd400', '#4e9a06', '#3465a4', '#75507b', '#000000', '#ffffff'];

function paletteButtons(colors, width, height) {
    const groups = [
        colors.map(color => ({kind: 'color', color, select: `color:${color.toLowerCase()}`})),
        TOOLS.map(tool => ({kind: 'tool', tool, select: `tool:${tool}`})),
        [{kind: 'narrower', select: 'width:-'}, {kind: 'wider', select: 'width:+'}],
    ];
    const count = groups.reduce((n, g) => n + g.length, 0);
    if (count === 0 || width <= 0 || height <= 0)
        return [];
    let side = Math.min(Math.max(Math.min(width, height) * 0.045, 24), 64);
    side = Math.min(side, width / (count + 2.5));
    const margin = side / 2, y = height - margin - side;
    let x = margin;
    const buttons = [];
    for (const group of groups) {
        for (const b of group) {
            buttons.push(Object.assign({x, y, size: side}, b));
            x += side;
        }
        x += margin;
    }
    return buttons;
}

// The buttons in the tablet's coordinates, for `palette-regions`: the inverse of
// InkLayers.pixel (a window pixel (px, py) is ((px + x) / width, (py + y) / height)
// of the area the tablet maps to); cut to that area.
function paletteRegions(buttons, geometry) {
    const regions = [];
    for (const b of buttons) {
        const x0 = Math.max(0, (b.x + geometry.x) / geometry.width), y0 = Math.max(0, (b.y + geometry.y) / geometry.height);
        const x1 = Math.min(1, (b.x + b.size + geometry.x) / geometry.width), y1 = Math.min(1, (b.y + b.size + geometry.y) / geometry.height);
        if (x1 > x0 && y1 > y0)
            regions.push({x: x0, y: y0, width: x1 - x0, height: y1 - y0, select: b.select});
    }
    return regions;
}

// The glyphs of stylus-canvas's InkLayers+Palette.swift, drawn into a box of side `s` at (x, y).
function drawPaletteButton(cr, b, x, y, selected) {
    const s = b.size, inset = s * 0.18;
    const bx = x + inset, by = y + inset, bw = s - 2 * inset, bh = s - 2 * inset;
    const at = (u, v) => [bx + u * bw, by + v * bh];
    const white = width => {
        cr.setSourceRGBA(0.95, 0.95, 0.95, 1);
        cr.setLineWidth(width);
    };
    const line = (u0, v0, u1, v1) => {
        cr.moveTo(...at(u0, v0));
        cr.lineTo(...at(u1, v1));
    };
    if (selected) {
        cr.rectangle(x + 2, y + 2, s - 4, s - 4);
        cr.setSourceRGBA(1, 1, 1, 1);
        cr.setLineWidth(2.5);
        cr.stroke();
    }
    cr.newPath();
    cr.setLineCap(Cairo.LineCap.ROUND);
    if (b.kind === 'color') {
        const c = parseColor(b.color);
        cr.rectangle(bx, by, bw, bh);
        cr.setSourceRGBA(c[0], c[1], c[2], 1);
        cr.fillPreserve();
        cr.setSourceRGBA(0.6, 0.6, 0.6, 1);
        cr.setLineWidth(1);
        cr.stroke();
    } else if (b.kind === 'tool') {
        switch (b.tool) {
        case 'pen':
            white(2);
            cr.moveTo(...at(0.05, 0.7));
            cr.curveTo(...at(0.35, -0.1), ...at(0.6, 1.1), ...at(0.95, 0.3));
            cr.stroke();
            break;
        case 'highlighter':
            cr.setSourceRGBA(0.93, 0.83, 0, 0.6);
            cr.setLineWidth(bh * 0.35);
            cr.setLineCap(Cairo.LineCap.BUTT);
            line(0.05, 0.55, 0.95, 0.45);
            cr.stroke();
            break;
        case 'eraser':
            white(1.5);
            cr.rectangle(bx + bw * 0.1, by + bh * 0.3, bw * 0.8, bh * 0.4);
            cr.stroke();
            cr.rectangle(bx + bw * 0.1, by + bh * 0.3, bw * 0.3, bh * 0.4);
            cr.fill();
            break;
        case 'laser':
            cr.arc(bx + bw / 2, by + bh / 2, bw * 0.42, 0, 2 * Math.PI);
            cr.setSourceRGBA(1, 0.2, 0.2, 0.35);
            cr.fill();
            cr.arc(bx + bw / 2, by + bh / 2, bw * 0.18, 0, 2 * Math.PI);
            cr.setSourceRGBA(1, 0.15, 0.15, 1);
            cr.fill();
            break;
        case 'line':
            white(2);
            line(0.1, 0.9, 0.9, 0.1);
            cr.stroke();
            cr.arc(...at(0.1, 0.9), 2.5, 0, 2 * Math.PI);
            cr.fill();
            cr.arc(...at(0.9, 0.1), 2.5, 0, 2 * Math.PI);
            cr.fill();
            break;
        case 'arrow':
            white(2);
            line(0.1, 0.9, 0.9, 0.1);
            line(0.9, 0.1, 0.45, 0.15);
            line(0.9, 0.1, 0.85, 0.55);
            cr.stroke();
            break;
        case 'rectangle':
            white(2);
            cr.rectangle(bx + bw * 0.05, by + bh * 0.2, bw * 0.9, bh * 0.6);
            cr.stroke();
            break;
        case 'ellipse':
            white(2);
            cr.save();
            cr.translate(bx + bw / 2, by + bh / 2);
            cr.scale(bw * 0.47, bh * 0.33);
            cr.arc(0, 0, 1, 0, 2 * Math.PI);
            cr.restore();
            cr.stroke();
            break;
        }
    } else {
        white(2.5);
        line(0.15, 0.5, 0.85, 0.5);
        if (b.kind === 'wider')
            line(0.5, 0.15, 0.5, 0.85);
        cr.stroke();
    }
}

// ---------------------------------------------------------------- the daemon

// One connection: requests with ids, and the subscribed events on the same
// line stream. Reconnects with the backoff of StylusClient (100 ms, doubling, at most 5 s).
class DaemonLink {
    constructor(path, onUpdate) {
        this.path = path;
        this.onUpdate = onUpdate;
        this.nextId = 1;
        this.pending = new Map();
        this.queue = [];
        this.delay = 100;
        this.everConnected = false;
        this.announcedDown = false;
        this.cancellable = new Gio.Cancellable();
        this.timer = 0;
        this.connect();
    }

    connect() {
        this.timer = 0;
        const client = new Gio.SocketClient();
        client.connect_async(Gio.UnixSocketAddress.new(this.path), this.cancellable, (c, result) => {
            try {
                this.connection = c.connect_finish(result);
            } catch (e) {
                if (!this.cancellable.is_cancelled())
                    this.dropped(`cannot connect to ${this.path}: ${e.message}`);
                return;
            }
            this.input = Gio.DataInputStream.new(this.connection.get_input_stream());
            this.output = this.connection.get_output_stream();
            this.readLine();
            this.request('subscribe', {topics: ['canvas', 'pen', 'output', 'device', 'tool']}, () => {
                this.request('status', {}, status => {
                    this.delay = 100;
                    this.announcedDown = false;
                    const again = this.everConnected;
                    this.everConnected = true;
                    this.onUpdate({type: 'connected', status, again});
                });
            });
        });
    }

    readLine() {
        this.input.read_line_async(GLib.PRIORITY_DEFAULT, this.cancellable, (stream, result) => {
            let line;
            try {
                [line] = stream.read_line_finish_utf8(result);
            } catch (e) {
                if (!this.cancellable.is_cancelled())
                    this.dropped(e.message);
                return;
            }
            if (line === null) {
                this.dropped('stylusd closed the connection (it stopped)');
                return;
            }
            let message;
            try {
                message = JSON.parse(line);
            } catch (e) {
                this.dropped(`stylusd sent a line that is not JSON: ${e.message}`);
                return;
            }
            // A mistake in handling one line must not stop the link: said in the journal, and on.
            try {
                if (message.event !== undefined) {
                    this.onUpdate({type: 'event', event: message});
                } else if (this.pending.has(message.id)) {
                    const done = this.pending.get(message.id);
                    this.pending.delete(message.id);
                    if (message.ok)
                        done(message.result);
                    else
                        log_(`request ${message.id}: ${message.error && message.error.message}`);
                }
            } catch (e) {
                logError(e, 'stylus-canvas@stylusd');
            }
            this.readLine();
        });
    }

    request(cmd, fields, done) {
        if (!this.output)
            return;
        const id = this.nextId++;
        if (done)
            this.pending.set(id, done);
        this.queue.push(new TextEncoder().encode(`${JSON.stringify(Object.assign({id, cmd}, fields))}\n`));
        if (this.queue.length === 1)
            this.writeNext();
    }

    // A GIO stream takes one write at a time: requests wait their turn.
    writeNext() {
        const output = this.output;
        if (!output || this.queue.length === 0)
            return;
        output.write_all_async(this.queue[0], GLib.PRIORITY_DEFAULT, this.cancellable, (s, result) => {
            try {
                s.write_all_finish(result);
            } catch (e) {
                log_(`writing to stylusd: ${e.message}`);
            }
            if (output !== this.output)
                return;
            this.queue.shift();
            this.writeNext();
        });
    }

    dropped(reason) {
        if (this.connection) {
            this.connection.close(null);
            this.connection = null;
        }
        this.input = null;
        this.output = null;
        this.pending.clear();
        this.queue = [];
        // Said once per outage, as StylusClient does: the 2 s hide counts from the first failure.
        if (!this.announcedDown) {
            this.announcedDown = true;
            this.onUpdate({type: 'disconnected', reason});
        }
        this.timer = GLib.timeout_add(GLib.PRIORITY_DEFAULT, this.delay, () => {
            this.connect();
            return GLib.SOURCE_REMOVE;
        });
        this.delay = Math.min(this.delay * 2, 5000);
    }

    destroy() {
        this.cancellable.cancel();
        if (this.timer)
            GLib.source_remove(this.timer);
        if (this.connection)
            this.connection.close(null);
    }
}

// ---------------------------------------------------------------- one monitor

// The canvas on one monitor: a container above every window (top chrome, never
// in the Shell's input region) holding the ink as two grids of tiles and a ring
// per hovering tool. A finished tile draws the finished strokes that reach it
// (and the erasers in progress, which clear them); a live tile above it the
// strokes in progress, and goes once the daemon confirms them. A change repaints
// only the tiles it touches; a tile exists from when a stroke's box first reaches
// it until a redraw (undo, redo, erase) finds none there, and has an actor only
// while the canvas shows.
//
// The Shell holds each tile twice, the pixel buffer of its last repaint and its
// texture; the strokes, not a copy of their pixels, are what a repaint draws
// from, so the ink costs no more than that. Square tiles of one size keep
// those allocations small and alike, so the Shell's allocator reuses what it
// freed, where a full-screen or a resized actor left its heap a little larger
// each time. What the Shell holds goes with the number of tiles more than with
// their pixels (an open canvas at rest over the same 500 strokes held 30 MiB
// with 70 tiles of 128 pixels, 6.5 MiB with 15 of 256: docs/PERFORMANCE.md 9c),
// so tiles are not smaller.
const TILE = 256;

// Square tiles of one side over a monitor: `tiles[i]` for the one at column
// i % columns, row floor(i / columns).
class TileGrid {
    constructor(side, width, height) {
        this.side = side;
        this.width = width;
        this.height = height;
        this.columns = Math.ceil(width / side);
        this.rows = Math.ceil(height / side);
        this.tiles = new Array(this.columns * this.rows).fill(null);
    }

    // Calls visit(index) for each tile that `box` (pixels) overlaps.
    in(box, visit) {
        const side = this.side;
        const c0 = Math.max(0, Math.floor(box.x0 / side)), c1 = Math.min(this.columns - 1, Math.floor(box.x1 / side));
        const r0 = Math.max(0, Math.floor(box.y0 / side)), r1 = Math.min(this.rows - 1, Math.floor(box.y1 / side));
        for (let r = r0; r <= r1; r++) {
            for (let c = c0; c <= c1; c++)
                visit(r * this.columns + c);
        }
    }

    box(i) {
        const x = (i % this.columns) * this.side, y = Math.floor(i / this.columns) * this.side;
        return {x0: x, y0: y, x1: Math.min(x + this.side, this.width), y1: Math.min(y + this.side, this.height)};
    }
}

class MonitorCanvas {
    constructor(monitor, geometry, shown, hover) {
        this.box = new St.Widget({
            name: 'stylus-canvas', reactive: false, visible: shown, opacity: shown ? 255 : 0,
            x: monitor.x, y: monitor.y, width: monitor.width, height: monitor.height,
            layout_manager: new Clutter.FixedLayout(),
        });
        this.ink = new InkLayers(geometry);
        // Each tile {actor, strokes}: the finished strokes that reach it, in order.
        this.finished = new TileGrid(TILE, monitor.width, monitor.height);
        // Each tile an actor.
        this.live = new TileGrid(TILE, monitor.width, monitor.height);
        this.liveStrokes = [];
        // The finished tiles the erasers in progress reached.
        this.erased = new Set();
        this.dirtyFinished = new Set();
        this.dirtyLive = new Set();
        // Whether the tiles have actors: not while the canvas is hidden.
        this.painted = shown;
        // The finished tiles, the live ones over them, then the rings and the palette.
        this.finishedGroup = new Clutter.Actor();
        this.liveGroup = new Clutter.Actor();
        this.box.add_child(this.finishedGroup);
        this.box.add_child(this.liveGroup);
        this.monitor = monitor;
        this.geometry = geometry;
        this.palette = {buttons: [], style: null, area: null};
        this.rings = new Map();
        this.hover = hover;
        Main.layoutManager.addTopChrome(this.box, {affectsInputRegion: false, trackFullscreen: false});
    }

    // Finished strokes drawn after those there are. An eraser's only changes
    // tiles that hold ink already.
    addFinished(strokes) {
        for (const stroke of strokes) {
            const erases = stroke.style.tool === 'eraser';
            this.ink.cover(stroke, box => this.finished.in(box, i => {
                const tiles = this.finished.tiles;
                if (erases && !tiles[i]?.strokes.length)
                    return;
                const tile = tiles[i] ?? (tiles[i] = {actor: null, strokes: []});
                if (tile.strokes[tile.strokes.length - 1] !== stroke)
                    tile.strokes.push(stroke);
                this.dirtyFinished.add(i);
            }));
        }
    }

    // The finished strokes are these (an undo, a redo, an erase, another daemon):
    // a tile no stroke reaches any more goes.
    setFinished(strokes) {
        const tiles = this.finished.tiles;
        for (const tile of tiles) {
            if (tile)
                tile.strokes = [];
        }
        this.addFinished(strokes);
        tiles.forEach((tile, i) => {
            if (tile && tile.strokes.length === 0) {
                tile.actor?.destroy();
                tiles[i] = null;
            }
        });
    }

    // The strokes in progress are these.
    setLive(strokes) {
        this.liveStrokes = strokes;
        const inked = new Set();
        for (const stroke of strokes) {
            if (stroke.style.tool !== 'eraser')
                this.ink.cover(stroke, box => this.live.in(box, i => inked.add(i)));
        }
        this.live.tiles.forEach((actor, i) => {
            if (actor && !inked.has(i)) {
                actor.destroy();
                this.live.tiles[i] = null;
            }
        });
        for (const i of inked)
            this.dirtyLive.add(i);
        // An eraser no longer in progress (finished, or undone) leaves what it cleared to the finished strokes.
        for (const i of this.erased)
            this.dirtyFinished.add(i);
        this.erased.clear();
        for (const stroke of strokes) {
            if (stroke.style.tool === 'eraser')
                this.ink.cover(stroke, box => this.erase(box));
        }
    }

    // An eraser in progress reached `box`: the tiles with ink there.
    erase(box) {
        this.finished.in(box, i => {
            if (this.finished.tiles[i]) {
                this.erased.add(i);
                this.dirtyFinished.add(i);
            }
        });
        this.live.in(box, i => {
            if (this.live.tiles[i])
                this.dirtyLive.add(i);
        });
    }

    // A segment added to a stroke in progress (`strokes`): an eraser's clears
    // finished and live ink, the others' is drawn in the live tiles it reaches.
    liveSegment(a, b, style, strokes) {
        this.liveStrokes = strokes;
        this.ink.coverSegment(a, b, style, box => {
            if (style.tool === 'eraser')
                this.erase(box);
            else
                this.live.in(box, i => this.dirtyLive.add(i));
        });
    }

    // Hidden, the canvas keeps the strokes of each tile but not their pixels:
    // the Shell's buffer and texture of each tile go, and showing it paints the
    // tiles again as the Shell lays them out for the first frame.
    setShown(shown) {
        if (shown === this.painted)
            return;
        this.painted = shown;
        if (shown) {
            this.finished.tiles.forEach((tile, i) => {
                if (tile)
                    this.dirtyFinished.add(i);
            });
            this.setLive(this.liveStrokes);
            this.flush();
            return;
        }
        for (const tile of this.finished.tiles) {
            if (tile?.actor) {
                tile.actor.destroy();
                tile.actor = null;
            }
        }
        this.live.tiles.forEach((actor, i) => {
            actor?.destroy();
            this.live.tiles[i] = null;
        });
    }

    // Each changed tile repainted once; a new one paints as the Shell lays it out.
    flush() {
        if (!this.painted) {
            this.dirtyFinished.clear();
            this.dirtyLive.clear();
            return;
        }
        for (const i of this.dirtyFinished) {
            const tile = this.finished.tiles[i];
            if (!tile)
                continue;
            if (tile.actor)
                tile.actor.queue_repaint();
            else
                tile.actor = this.newTile(this.finished.box(i), this.finishedGroup, (cr, box) => this.paintFinished(cr, i, box));
        }
        const live = this.live.tiles;
        for (const i of this.dirtyLive) {
            if (live[i])
                live[i].queue_repaint();
            else
                live[i] = this.newTile(this.live.box(i), this.liveGroup, (cr, box) => this.paintLive(cr, box));
        }
        this.dirtyFinished.clear();
        this.dirtyLive.clear();
    }

    paintFinished(cr, i, box) {
        for (const stroke of this.finished.tiles[i]?.strokes ?? [])
            this.ink.draw(cr, stroke, box);
        for (const stroke of this.liveStrokes) {
            if (stroke.style.tool === 'eraser')
                this.ink.draw(cr, stroke, box);
        }
    }

    paintLive(cr, box) {
        for (const stroke of this.liveStrokes)
            this.ink.draw(cr, stroke, box);
    }

    newTile(box, group, paint) {
        const tile = new St.DrawingArea({x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0});
        tile.connect('repaint', a => {
            const cr = a.get_context();
            cr.translate(-box.x0, -box.y0);
            paint(cr, box);
            cr.$dispose();
        });
        group.add_child(tile);
        return tile;
    }

    // No ink: the tiles go with their buffers.
    clear() {
        for (const tile of this.finished.tiles)
            tile?.actor?.destroy();
        for (const actor of this.live.tiles)
            actor?.destroy();
        this.finished.tiles.fill(null);
        this.live.tiles.fill(null);
        this.liveStrokes = [];
        this.erased.clear();
        this.dirtyFinished.clear();
        this.dirtyLive.clear();
    }

    // A ring where each tool hovers or touches, moved rather than painted again.
    placeRings() {
        for (const [device, ring] of this.rings) {
            if (!this.hover.has(device)) {
                ring.destroy();
                this.rings.delete(device);
            }
        }
        const size = 2 * (RING_RADIUS + RING_WIDTH) + 2;
        for (const [device, point] of this.hover) {
            let ring = this.rings.get(device);
            if (!ring) {
                ring = new St.DrawingArea({width: size, height: size});
                ring.connect('repaint', a => {
                    const cr = a.get_context();
                    cr.arc(size / 2, size / 2, RING_RADIUS, 0, 2 * Math.PI);
                    cr.setLineWidth(RING_WIDTH);
                    cr.setSourceRGBA(1, 1, 1, 0.8);
                    cr.strokePreserve();
                    cr.setLineWidth(1.5);
                    cr.setSourceRGBA(0.1, 0.1, 0.1, 0.9);
                    cr.stroke();
                    cr.$dispose();
                });
                this.box.add_child(ring);
                this.rings.set(device, ring);
            }
            const [x, y] = this.ink.pixel(point);
            ring.set_position(Math.round(x - size / 2), Math.round(y - size / 2));
        }
    }

    // The palette's own actor, over the ink: only the strip, painted when the style changes.
    setPalette(buttons, style) {
        const p = this.palette;
        if (p.style && sameStyle(style, p.style) && JSON.stringify(buttons) === JSON.stringify(p.buttons))
            return;
        p.buttons = buttons;
        p.style = style;
        if (buttons.length === 0) {
            if (p.area) {
                p.area.destroy();
                p.area = null;
            }
            return;
        }
        const pad = buttons[0].size / 6;
        const x0 = buttons[0].x - pad, y0 = buttons[0].y - pad;
        const x1 = Math.max(...buttons.map(b => b.x + b.size)) + pad, y1 = Math.max(...buttons.map(b => b.y + b.size)) + pad;
        if (!p.area) {
            p.area = new St.DrawingArea();
            p.area.connect('repaint', a => this.paintPalette(a));
            this.box.add_child(p.area);
        }
        p.origin = [Math.floor(x0), Math.floor(y0)];
        p.area.set_position(...p.origin);
        p.area.set_size(Math.ceil(x1) - p.origin[0], Math.ceil(y1) - p.origin[1]);
        p.strip = [x0, y0, x1 - x0, y1 - y0];
        p.area.queue_repaint();
    }

    paintPalette(area) {
        const p = this.palette;
        const cr = area.get_context();
        const [ox, oy] = p.origin;
        const [x, y, w, h] = p.strip;
        cr.rectangle(x - ox, y - oy, w, h);
        cr.setSourceRGBA(0.16, 0.16, 0.18, 0.88);
        cr.fill();
        for (const b of p.buttons) {
            const selected = (b.kind === 'color' && b.color.toLowerCase() === p.style.color.toLowerCase()) || (b.kind === 'tool' && b.tool === p.style.tool);
            drawPaletteButton(cr, b, b.x - ox, b.y - oy, selected);
        }
        cr.$dispose();
    }

    destroy() {
        Main.layoutManager.removeChrome(this.box);
        this.box.destroy();
    }
}

// ---------------------------------------------------------------- the canvas

class StylusCanvas {
    enable() {
        this.book = new StrokeBook();
        this.hover = new Map();
        this.state = 'minimized';
        this.shown = false;
        this.capturesPen = false;
        this.connected = false;
        this.generation = 0;
        this.currentStyle = makeStyle('pen');
        this.paletteShown = false;
        this.paletteColors = DEFAULT_PALETTE;
        this.reportedRegions = null;
        this.fetching = false;
        this.fetchAgain = false;
        this.rebuildOnNextFetch = false;
        this.accelerators = [];
        this.surfaces = [];
        this.clickThrough = !!GLib.getenv('STYLUS_CANVAS_CLICK_THROUGH');
        this.monitorsChangedId = Main.layoutManager.connect('monitors-changed', () => this.placeSurfaces());
        this.acceleratorId = global.display.connect('accelerator-activated', (display, action) => this.accelerator(action));
        this.placeSurfaces();
        log_(`following ${socketPath()}`);
        this.link = new DaemonLink(socketPath(), update => this.handle(update));
    }

    disable() {
        this.link.destroy();
        this.ungrabKeys();
        Main.layoutManager.disconnect(this.monitorsChangedId);
        global.display.disconnect(this.acceleratorId);
        for (const s of this.surfaces)
            this.destroySurface(s);
        this.surfaces = [];
    }

    // One drawing area per monitor, above every window (top chrome), never
    // taking part in the shell's input region: clicks go where `reactive` says.
    placeSurfaces() {
        for (const s of this.surfaces)
            this.destroySurface(s);
        const monitors = Main.layoutManager.monitors;
        // A tablet that is not mapped to one monitor covers the whole desktop.
        const x0 = Math.min(...monitors.map(m => m.x)), y0 = Math.min(...monitors.map(m => m.y));
        const x1 = Math.max(...monitors.map(m => m.x + m.width)), y1 = Math.max(...monitors.map(m => m.y + m.height));
        this.surfaces = monitors.map(m => {
            const s = new MonitorCanvas(m, {x: m.x - x0, y: m.y - y0, width: x1 - x0, height: y1 - y0}, this.shown, this.hover);
            s.setFinished(this.book.finished);
            s.setLive(this.book.liveStrokes);
            s.flush();
            return s;
        });
        // The area the tablet maps to: what an export draws at when it is given no size.
        this.area = {width: x1 - x0, height: y1 - y0};
        this.updateReactive();
        if (this.connected)
            this.reportOverlay();
        this.updatePalette();
    }

    reportOverlay() {
        const report = {backend: 'gnome-extension', outputs: this.surfaces.length};
        if (this.area && this.area.width > 0 && this.area.height > 0)
            Object.assign(report, this.area);
        this.link.request('overlay', report);
    }

    // The palette on the first monitor, drawn while the daemon says it shows; its
    // buttons go to the daemon, which sees every tap, on this link's connection
    // (the daemon forgets them when it closes, as when the extension is disabled).
    updatePalette() {
        const first = this.surfaces[0];
        if (!first)
            return;
        const buttons = paletteButtons(this.paletteColors, first.monitor.width, first.monitor.height);
        first.setPalette(this.paletteShown ? buttons : [], this.currentStyle);
        for (const s of this.surfaces.slice(1))
            s.setPalette([], this.currentStyle);
        const regions = paletteRegions(buttons, first.geometry);
        const text = JSON.stringify(regions);
        if (!this.connected || text === this.reportedRegions)
            return;
        this.reportedRegions = text;
        this.link.request('palette-regions', {regions}, () => log_(`palette: ${regions.length} regions reported`));
    }

    destroySurface(s) {
        s.destroy();
    }

    // ------------------------------------------------------------ the daemon's updates

    handle(update) {
        if (update.type === 'connected') {
            const status = update.status;
            this.connected = true;
            this.generation++;
            log_(`${update.again ? 'reconnected' : 'connected'}: canvas ${status.canvas.state}, ${status.canvas.stroke_count} strokes`);
            this.setCapturesPen(!!(status.output && (status.output.captures_pen ?? status.output.mode === 'filter')));
            if (status.tool)
                this.currentStyle = makeStyle(status.tool.tool, status.tool.color, status.tool.width);
            this.reportOverlay();
            this.paletteShown = !!(status.tool && status.tool.palette);
            if (status.tool && Array.isArray(status.tool.colors) && status.tool.colors.length > 0)
                this.paletteColors = status.tool.colors;
            // A daemon that restarted knows no regions.
            this.reportedRegions = null;
            this.updatePalette();
            if (update.again || status.canvas.stroke_count !== this.book.finished.length)
                this.fetchStrokes();
            this.follow(status.canvas.state);
        } else if (update.type === 'disconnected') {
            const wasConnected = this.connected;
            this.connected = false;
            this.generation++;
            const generation = this.generation;
            if (wasConnected)
                log_(`disconnected: ${update.reason}`);
            // A daemon that stopped gave the pen back to the desktop: the canvas takes the clicks until it hides.
            this.setCapturesPen(false);
            GLib.timeout_add(GLib.PRIORITY_DEFAULT, DEAD_DAEMON_HIDE_MS, () => {
                if (generation === this.generation && !this.connected && this.shown) {
                    log_('stylusd gone for 1.5 s: hiding');
                    this.hideNow();
                }
                return GLib.SOURCE_REMOVE;
            });
        } else {
            this.event(update.event);
        }
    }

    event(e) {
        switch (e.event) {
        case 'canvas':
            log_(`canvas ${e.state} (${e.cause}, ${e.stroke_count} strokes)`);
            if ((e.cause === 'undo' || e.cause === 'redo' || e.cause === 'erase') && e.stroke_count > 0) {
                this.rebuildOnNextFetch = true;
                this.fetchStrokes();
            } else if (e.stroke_count === 0 && (this.book.finished.length > 0 || this.book.liveStrokes.length > 0)) {
                this.book.clear();
                for (const s of this.surfaces)
                    s.clear();
            } else if (e.stroke_count !== this.book.finished.length && !this.fetching) {
                this.fetchStrokes();
            }
            this.follow(e.state);
            break;
        case 'stroke':
            this.fetchStrokes();
            break;
        case 'output':
            if (e.captures_pen !== undefined)
                this.setCapturesPen(e.captures_pen);
            else
                this.setCapturesPen(e.mode === 'filter');
            break;
        case 'tool':
            this.currentStyle = makeStyle(e.tool, e.color, e.width);
            this.paletteShown = !!e.palette;
            // A reload can change the palette's colours.
            if (Array.isArray(e.colors) && e.colors.length > 0)
                this.paletteColors = e.colors;
            this.updatePalette();
            break;
        case 'pen': {
            if (!this.shown)
                return;
            const point = {x: e.x, y: e.y, pressure: e.pressure || 0};
            this.hover.set(e.device, point);
            const lasers = this.book.lasers.length;
            if (this.state === 'open') {
                const style = Object.assign({}, this.currentStyle);
                if (e.tool === 'eraser')
                    style.tool = 'eraser';
                const change = this.book.penSample(e.device, style, point, !!e.tip);
                if (change === 'redrawLive') {
                    this.redrawLive();
                } else if (change) {
                    const live = this.book.liveStrokes;
                    for (const s of this.surfaces) {
                        s.liveSegment(...change.segment, live);
                        s.flush();
                    }
                }
            }
            if (this.book.lasers.length > lasers)
                this.expireLaserLater();
            for (const s of this.surfaces)
                s.placeRings();
            break;
        }
        case 'proximity':
            if (e.state !== 'in') {
                this.hover.delete(e.device);
                const lasers = this.book.lasers.length;
                if (this.book.endStroke(e.device))
                    this.redrawLive();
                if (this.book.lasers.length > lasers)
                    this.expireLaserLater();
                for (const s of this.surfaces)
                    s.placeRings();
            }
            break;
        }
    }

    expireLaserLater() {
        GLib.timeout_add(GLib.PRIORITY_DEFAULT, LASER_LIFETIME_MS, () => {
            if (this.book && this.book.expireOldestLaser())
                this.redrawLive();
            return GLib.SOURCE_REMOVE;
        });
    }

    redrawLive() {
        const live = this.book.liveStrokes;
        for (const s of this.surfaces) {
            s.setLive(live);
            s.flush();
        }
    }

    fetchStrokes() {
        if (this.fetching) {
            this.fetchAgain = true;
            return;
        }
        this.fetching = true;
        const rebuild = this.rebuildOnNextFetch;
        this.rebuildOnNextFetch = false;
        this.link.request('strokes', {}, result => {
            this.fetching = false;
            const strokes = result.strokes.map(s => ({
                device: s.device,
                style: makeStyle(s.tool, s.color, s.width),
                points: s.points.map(p => ({x: p[0], y: p[1], pressure: p[2]})),
            }));
            const {finished, liveChanged} = this.book.reconcile(strokes, rebuild);
            // Each tile repainted once, for the finished and the live strokes' changes.
            const live = this.book.liveStrokes;
            for (const s of this.surfaces) {
                if (finished === 'rebuild')
                    s.setFinished(this.book.finished);
                else if (finished !== 'unchanged')
                    s.addFinished(this.book.finished.slice(finished[0], finished[1]));
                if (liveChanged)
                    s.setLive(live);
                s.flush();
            }
            log_(`strokes: ${strokes.length}`);
            if (this.fetchAgain) {
                this.fetchAgain = false;
                this.fetchStrokes();
            }
        });
    }

    // ------------------------------------------------------------ showing and hiding

    follow(state) {
        this.state = state;
        if (state === 'opening')
            this.show(true);
        else if (state === 'open')
            this.show(false);
        else if (state === 'minimizing')
            this.hide(true);
        else if (this.shown)
            this.hideNow();
    }

    show(ack) {
        const already = this.shown;
        this.shown = true;
        this.grabKeys();
        this.updateReactive();
        let pending = this.surfaces.length;
        if (already && this.surfaces.every(s => s.box.opacity === 255 && s.box.visible)) {
            if (ack)
                this.ack();
            return;
        }
        if (!already)
            log_('presented');
        for (const s of this.surfaces) {
            s.setShown(true);
            s.box.show();
            s.box.ease({
                opacity: 255, duration: FADE_MS, mode: Clutter.AnimationMode.LINEAR,
                onStopped: () => {
                    if (--pending === 0 && this.shown) {
                        log_('shown');
                        if (ack)
                            this.ack();
                    }
                },
            });
        }
        if (this.surfaces.length === 0 && ack)
            this.ack();
    }

    hide(ack) {
        if (!this.shown) {
            if (ack)
                this.ack();
            return;
        }
        let pending = this.surfaces.length;
        for (const s of this.surfaces) {
            s.box.ease({
                opacity: 0, duration: FADE_MS, mode: Clutter.AnimationMode.LINEAR,
                onStopped: () => {
                    if (--pending === 0)
                        this.hideNow(ack);
                },
            });
        }
        if (this.surfaces.length === 0)
            this.hideNow(ack);
    }

    hideNow(ack = false) {
        this.shown = false;
        for (const s of this.surfaces) {
            s.box.remove_all_transitions();
            s.box.opacity = 0;
            s.box.hide();
            s.setShown(false);
        }
        this.ungrabKeys();
        this.updateReactive();
        log_('hidden');
        if (ack)
            this.ack();
    }

    ack() {
        log_('ack');
        this.link.request('ack', {});
    }

    // ------------------------------------------------------------ input

    setCapturesPen(captures) {
        if (captures === this.capturesPen)
            return;
        this.capturesPen = captures;
        this.updateReactive();
    }

    // As on X11 and sway: in filter mode (the daemon captures the pen) and with
    // click-through the pointer goes through; in observe mode the open canvas
    // takes it, so a stroke does not also click the applications under it.
    // mutter picks the actor under the pointer again only when it moves.
    updateReactive() {
        const reactive = this.shown && !this.capturesPen && !this.clickThrough;
        for (const s of this.surfaces)
            s.box.reactive = reactive;
        log_(reactive ? 'takes pointer input' : 'click-through');
    }

    // Escape minimizes, Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo: grabbed only while the canvas shows.
    grabKeys() {
        if (this.accelerators.length > 0)
            return;
        for (const [keys, what] of [['Escape', 'minimize'], ['<Control>z', 'undo'], ['<Control><Shift>z', 'redo'], ['<Control>y', 'redo']]) {
            const action = global.display.grab_accelerator(keys, Meta.KeyBindingFlags.NONE);
            if (action === Meta.KeyBindingAction.NONE) {
                log_(`cannot grab ${keys}`);
                continue;
            }
            Main.wm.allowKeybinding(Meta.external_binding_name_for_action(action), Shell.ActionMode.ALL);
            this.accelerators.push({action, what});
        }
    }

    ungrabKeys() {
        for (const {action} of this.accelerators)
            global.display.ungrab_accelerator(action);
        this.accelerators = [];
    }

    accelerator(action) {
        const grabbed = this.accelerators.find(a => a.action === action);
        if (!grabbed || !this.shown)
            return;
        log_(`a key: asking stylusd to ${grabbed.what}`);
        this.link.request(grabbed.what, {});
    }
}
