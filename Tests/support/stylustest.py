# SPDX-License-Identifier: MIT
"""What the Python tests and tools share: a failed check, the test runner,
and stylusd in its own directories (its socket client is stylusclient.py,
beside this file).

Used by the suites under Tests/ (contract, firstrun, actions, overlay),
hil/harness.py (inside the QEMU guest, which mounts the whole repository)
and tools/protocol_transcript.py. Each puts this folder on sys.path
relative to its own file. Standard library only."""
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import traceback

from stylusclient import Client


class Failure(Exception):
    """A check that did not hold: reported with its message, without a traceback."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def run_tests(label, tests, only="", fixture=None):
    """Runs every test whose name contains `only`, in order, and prints a PASS
    or FAIL line for each, then 'LABEL: N passed, N failed'. With `fixture` (a
    context manager factory) each test gets what it yields as its argument.
    Returns the exit status: 0 when something ran and nothing failed."""
    passed = failed = 0
    for test in tests:
        if only and only not in test.__name__:
            continue
        started = time.monotonic()
        try:
            if fixture is None:
                test()
            else:
                with fixture() as argument:
                    test(argument)
            passed += 1
            print(f"PASS {test.__name__} ({time.monotonic() - started:.1f} s)", flush=True)
        except Exception as error:
            failed += 1
            print(f"FAIL {test.__name__}: {error}", flush=True)
            if not isinstance(error, Failure):
                traceback.print_exc()
    print(f"{label}: {passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 and passed > 0 else 1


def main_with_binaries(label, tests, prefix, use_binaries):
    """The command line of a suite that runs built programs: `--bin FOLDER`
    (stylusd and stylusctl) and `--only NAME`. Calls `use_binaries` with the
    absolute folder, then runs the tests, each with a fresh private folder
    whose name starts with `prefix`. Returns the exit status."""
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="folder with stylusd and stylusctl")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    use_binaries(os.path.abspath(a.bin))
    return run_tests(label, tests, a.only, fixture=lambda: private_directory(prefix))


@contextlib.contextmanager
def private_directory(prefix):
    """A fresh 0700 directory, removed with everything in it afterwards."""
    root = tempfile.mkdtemp(prefix=prefix)
    os.chmod(root, 0o700)
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


class Daemon:
    """stylusd with its own runtime, state and config directories under
    `root`; its log lines are collected from stderr. `command` is the argv
    before `args` (the stylusd binary, or a wrapper that execs it). Leaving a
    `with` block stops it."""

    def __init__(self, command, root, *args, env=None, wait=True, pass_fds=(), preexec=None):
        self.root = root
        self.socket = os.path.join(root, "run", "stylusd", "stylusd.sock")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(root, "run"), XDG_STATE_HOME=os.path.join(root, "state"),
                        XDG_CONFIG_HOME=os.path.join(root, "config"))
        self.env.pop("STYLUSD_SOCKET", None)
        self.env.update(env or {})
        os.makedirs(os.path.join(root, "run"), mode=0o700, exist_ok=True)
        self.proc = subprocess.Popen(list(command) + list(args), env=self.env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, pass_fds=pass_fds, preexec_fn=preexec)
        self.log = []
        self._ready = threading.Event()
        self._log_reader = threading.Thread(target=self._read_log, daemon=True)
        self._log_reader.start()
        if wait:
            check(self._ready.wait(15), f"stylusd did not become ready: {self.log}")

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.stop()

    def _read_log(self):
        for line in self.proc.stderr:
            self.log.append(line.rstrip("\n"))
            if line.startswith("stylusd: ready"):
                self._ready.set()

    def connect(self, path=None):
        return Client(path or self.socket)

    def stop(self, sig=signal.SIGTERM):
        """Sends `sig` unless it has exited already; returns its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.wait_exit()

    def wait_exit(self, timeout=10):
        """Its exit status, once it has exited and its last log line is in `log`."""
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure(f"stylusd did not stop within {timeout} s")
        # Its stderr ends when it (and any child holding the pipe) has gone.
        self._log_reader.join(timeout=10)
        return status

    def wait_log(self, text, timeout=10):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(text in l for l in self.log):
                return
            time.sleep(0.02)
        raise Failure(f"no log line with {text!r}: {self.log}")
