# SPDX-License-Identifier: MIT
"""stylusd started for a test or a benchmark: its own runtime, state and
config directories, waited for until it can answer, stopped with its log
collected. The one launcher of Tests/, hil/ and bench/; each caller says
where the directories go and how to tell that the daemon is ready, as its
suite always did. Standard library only."""
import os
import signal
import socket
import subprocess
import threading
import time

from stylusclient import Client
from stylustest import Failure, check

READY_LINE = "stylusd: ready"


class Daemon:
    """stylusd: `command` is the argv before `args` (the binary, or a wrapper
    that execs it). XDG_RUNTIME_DIR, XDG_STATE_HOME and XDG_CONFIG_HOME are
    `runtime`, `state` and `config` (by default run/, state/ and config/
    under `root`); `env` overrides what it inherits. The socket is the one
    `--socket` names, else the default one under the runtime directory.

    `ready` says how to know it answers: "log" (its 'stylusd: ready' line on
    stderr), "socket" (the socket file exists), "notify" (READY=1 on a
    NOTIFY_SOCKET of its own, as systemd hears it; `ready_after` is then the
    seconds it took) or None (do not wait; `wait=False` too). With `log`
    (the default) its stderr lines are collected in `log`, else discarded.
    Leaving a `with` block stops it."""

    def __init__(self, command, root, *args, env=None, wait=True, ready="log", ready_timeout=15, runtime=None, state=None,
                 config=None, log=True, pass_fds=(), preexec=None):
        self.root = root
        runtime = runtime or os.path.join(root, "run")
        self.socket = _option(args, "--socket") or os.path.join(runtime, "stylusd", "stylusd.sock")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=runtime, XDG_STATE_HOME=state or os.path.join(root, "state"),
                        XDG_CONFIG_HOME=config or os.path.join(root, "config"))
        self.env.pop("STYLUSD_SOCKET", None)
        self.env.update(env or {})
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        notify = None
        if ready == "notify" and wait:
            notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            notify.bind(os.path.join(runtime, "notify"))
            notify.settimeout(ready_timeout)
            self.env["NOTIFY_SOCKET"] = notify.getsockname()
        self.log = []
        self._changed = threading.Condition()
        self._ready = threading.Event()
        started = time.perf_counter()
        self.proc = subprocess.Popen(list(command) + list(args), env=self.env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE if log else subprocess.DEVNULL, text=True, bufsize=1,
                                     pass_fds=pass_fds, preexec_fn=preexec)
        self._log_reader = None
        if log:
            self._log_reader = threading.Thread(target=self._read_log, daemon=True)
            self._log_reader.start()
        self.ready_after = None
        if not wait or ready is None:
            return
        if ready == "log":
            check(self._ready.wait(ready_timeout), f"stylusd did not become ready: {self.log}")
        elif ready == "socket":
            deadline = time.monotonic() + ready_timeout
            while not os.path.exists(self.socket):
                check(time.monotonic() < deadline and self.proc.poll() is None, "stylusd did not start")
                time.sleep(0.05)
        elif ready == "notify":
            try:
                while not notify.recv(4096).startswith(b"READY=1"):
                    pass
            finally:
                notify.close()
        else:
            raise ValueError(f"ready={ready!r}: one of 'log', 'socket', 'notify', None")
        self.ready_after = time.perf_counter() - started

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.stop()

    def _read_log(self):
        for line in self.proc.stderr:
            with self._changed:
                self.log.append(line.rstrip("\n"))
                self._changed.notify_all()
            if line.startswith(READY_LINE):
                self._ready.set()

    def connect(self, path=None):
        return Client(path or self.socket)

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout=10, log_wait=10):
        """Sends `sig` unless it has exited already; returns its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.wait_exit(timeout, log_wait)

    def wait_exit(self, timeout=10, log_wait=10):
        """Its exit status, once it has exited and (for up to `log_wait` s) its
        last log line is in `log`. Killed, and a Failure, when it has not
        exited within `timeout` s."""
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure(f"stylusd did not stop within {timeout} s")
        if self._log_reader is not None:
            # Its stderr ends when it (and any child holding the pipe) has gone.
            self._log_reader.join(timeout=log_wait)
        return status

    def wait_log(self, text, timeout=10):
        """Until a log line contains `text`."""
        end = time.monotonic() + timeout
        with self._changed:
            while not any(text in line for line in self.log):
                left = end - time.monotonic()
                if left <= 0:
                    raise Failure(f"no log line with {text!r} within {timeout} s: {self.log}")
                self._changed.wait(left)


def _option(args, name):
    """The value of `name VALUE` or `name=VALUE` in `args`, or None."""
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None
