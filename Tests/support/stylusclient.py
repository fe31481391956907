# SPDX-License-Identifier: MIT
"""A client of stylusd's socket, protocol v1 (newline-delimited JSON): the
one the Python tests, the hardware-in-the-loop suite (inside the QEMU guest,
which mounts the whole repository) and the benchmarks share. The program
that runs puts this folder on sys.path (see stylustest.py). Standard
library only."""
import json
import queue
import socket
import threading
import time


class Client:
    """One connection: its first message (`hello`), requests with their
    answers, and the events that arrive meanwhile, kept in `events` until
    `next_event` takes them (or, after `listen`, handed to a callback as
    they come). Every read waits at most `timeout` seconds and then raises
    socket.timeout; a closed connection raises EOFError."""

    def __init__(self, path, timeout=10):
        self.timeout = timeout
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 1
        self.events = []
        self._answers = None        # a queue.Queue once `listen` reads on its own thread
        self.received_at = None     # CLOCK_MONOTONIC (time.monotonic()) when the last read returned
        self.hello = self.read()

    def _receive(self):
        chunk = self.sock.recv(1 << 16)
        self.received_at = time.monotonic()
        if not chunk:
            raise EOFError("connection closed")
        self.buffer += chunk

    def read(self):
        """The next message, whatever it is."""
        while b"\n" not in self.buffer:
            self._receive()
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def read_available(self):
        """The messages already received whole; when there are none, those
        that one read brings (possibly none, when it ends within a line).
        For a reader that times arrivals: `received_at` is when they came."""
        if b"\n" not in self.buffer:
            self._receive()
        *complete, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in complete]

    def send_raw(self, data):
        self.sock.sendall(data)

    def send(self, cmd, **fields):
        """Sends a request without waiting for its answer; returns its id."""
        rid = self.next_id
        self.next_id += 1
        self.send_raw((json.dumps(dict(id=rid, cmd=cmd, **fields)) + "\n").encode())
        return rid

    def request(self, cmd, **fields):
        """Sends a request and returns its answer; events that arrive first are kept in `events`."""
        rid = self.send(cmd, **fields)
        while True:
            message = self.read() if self._answers is None else self._answers.get(timeout=self.timeout)
            if "event" in message:
                self.events.append(message)
            elif message.get("id") == rid:
                return message

    def next_event(self):
        if self.events:
            return self.events.pop(0)
        while True:
            message = self.read()
            if "event" in message:
                return message

    def listen(self, on_event):
        """From now on a thread of its own reads the connection, without a
        timeout: each event goes to `on_event` (called on that thread), and
        answers to `request`, which waits `timeout` seconds for one. The
        thread ends when the connection does."""
        self._answers = queue.Queue()
        self.sock.settimeout(None)

        def read_all():
            try:
                while True:
                    message = self.read()
                    if "event" in message:
                        on_event(message)
                    else:
                        self._answers.put(message)
            except (EOFError, OSError):
                return

        threading.Thread(target=read_all, daemon=True).start()

    def close(self):
        self.sock.close()
