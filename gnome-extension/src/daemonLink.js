// SPDX-License-Identifier: MIT
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';

// Said in the journal with STYLUS_CANVAS_VERBOSE set.
export function log_(message) {
    if (GLib.getenv('STYLUS_CANVAS_VERBOSE'))
        log(`stylus-canvas@stylusd: [${Math.floor(GLib.get_monotonic_time() / 1000)} ms] ${message}`);
}

export function socketPath() {
    const fromEnvironment = GLib.getenv('STYLUSD_SOCKET');
    if (fromEnvironment)
        return fromEnvironment;
    return GLib.build_filenamev([GLib.get_user_runtime_dir(), 'stylusd', 'stylusd.sock']);
}

// One connection: requests with ids, and the subscribed events on the same
// line stream. Reconnects with the backoff of StylusClient (100 ms, doubling, at most 5 s).
export class DaemonLink {
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
                    const {done, failed} = this.pending.get(message.id);
                    this.pending.delete(message.id);
                    if (message.ok) {
                        done?.(message.result);
                    } else {
                        const reason = message.error?.message ?? 'refused';
                        log_(`request ${message.id}: ${reason}`);
                        failed?.(reason);
                    }
                }
            } catch (e) {
                logError(e, 'stylus-canvas@stylusd');
            }
            this.readLine();
        });
    }

    // `done(result)` when the daemon answered, `failed(reason)` when it refused; neither
    // when the connection goes first. False when there is no connection to send on.
    request(cmd, fields, done, failed) {
        if (!this.output)
            return false;
        const id = this.nextId++;
        if (done || failed)
            this.pending.set(id, {done, failed});
        this.queue.push(new TextEncoder().encode(`${JSON.stringify(Object.assign({id, cmd}, fields))}\n`));
        if (this.queue.length === 1)
            this.writeNext();
        return true;
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

