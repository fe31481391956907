# SPDX-License-Identifier: MIT
"""What the Python tests share: a failed check, the test runner and a
private directory. Beside it in Tests/support/: daemon.py (stylusd in its
own directories), stylusclient.py (its socket client), measures.py (RSS,
percentiles), canvas_spec.py (the canvas's palette layout).

Every suite (Tests/, hil/tests/run.py) lists its tests in one list, in the
order they run, and hands it to `run_tests`; an entry script puts this
folder on sys.path once, relative to its own file (hil/ scripts too: the
QEMU guest mounts the whole repository). Standard library only."""
import contextlib
import os
import shutil
import sys
import tempfile
import time
import traceback


class Failure(Exception):
    """A check that did not hold: reported with its message, without a traceback."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def run_tests(label, tests, only="", fixture=None):
    """Runs every test whose name contains `only`, in order, and prints a PASS
    or FAIL line for each, then 'LABEL: N passed, N failed'. With `fixture` (a
    context manager factory) each test gets what it yields as its argument.
    A `test_` function of the listed tests' modules that is not in the list
    fails too, so that a new test cannot be left out by mistake.
    Returns the exit status: 0 when something ran and nothing failed."""
    passed = failed = 0
    for name in unlisted(tests):
        failed += 1
        print(f"FAIL {name}: not in the suite's list of tests", flush=True)
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


def unlisted(tests):
    """The names of the `test_` functions defined in the modules of `tests` that `tests` leaves out."""
    listed = {(t.__module__, t.__name__) for t in tests}
    missing = []
    for module in sorted({t.__module__ for t in tests}):
        for name, value in vars(sys.modules[module]).items():
            if (name.startswith("test_") and callable(value) and getattr(value, "__module__", None) == module
                    and (module, name) not in listed):
                missing.append(name)
    return missing


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


def __getattr__(name):
    # stylustest.Daemon, as tools/protocol_transcript.py imports it: the launcher is daemon.py's
    # (imported late, as daemon.py imports this module).
    if name == "Daemon":
        from daemon import Daemon
        return Daemon
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
