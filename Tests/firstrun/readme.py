#!/usr/bin/env python3
"""Every shell command in README.md, checked against the program, so the
README cannot drift from it again (issue 13).

Each line of each ```sh block is read as a reader would type it: a
trailing `# comment` is dropped, `a | b` and `a|b` are alternatives,
`[...]` is optional, capitals are placeholders. Then:

- `stylusctl ...`: every alternative runs, with and without its optional
  parts, against a daemon replaying a bundled recording on a socket of the
  test's; each must exit 0 (or 3, the daemon's own refusal, which is an
  answer) and never with a usage error.
- `stylusd ...` synopses: every option they name is one `--help` lists;
  `stylusd replay FILE ...` also runs on a bundled recording.
- `make TARGET`: the target exists (make's database); `make run`, `make demo`
  and `make install` run for real in first_run.py, `make test` is CI.
- `sudo`, `udevadm`, `systemctl --user`: the options exist (`--help`) and
  the units they name are in systemd/ (no session here to enable them in).
- `apt install ./.build-deb/...deb`: the file `make deb` writes for this
  version (make test-deb installs it on a clean Debian root).

A line this script cannot read is a failure, not a skip: teach it, or
write the README line so that it can be run.

    python3 Tests/firstrun/readme.py --bin .build-static/release [--only NAME]"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
import stylustest  # noqa: E402
from daemon import Daemon  # noqa: E402
from stylustest import check  # noqa: E402

RECORDING = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "Wacom_Cintiq_22HDT_Pen.events")
EXAMPLE_CONFIG = os.path.join(ROOT, "examples", "config.toml")
BIN = None

# What N stands for after each option that takes a number.
NUMBERS = {"--interval-ms": "400", "--debounce-ms": "20", "--transition-ms": "150", "--speed": "2"}
# What a placeholder stands for when a line is run.
PLACEHOLDERS = {
    "FILE": RECORDING, "TOPIC": "canvas", "TOPIC...": "canvas", "N": "300", "X": "2",
    "PATH": "/tmp/stylusd-readme.sock", "BUTTON=ACTION": "BTN_STYLUS=toggle-canvas",
    "/dev/input/eventN": "/dev/input/event0", "seat0": "seat0",
}


def shell_lines(readme):
    """(line number, command) for every command in the README's sh blocks;
    an indented line continues the one before it."""
    lines, inside, found = readme.splitlines(), False, []
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if not inside or not line.strip():
            continue
        text = re.sub(r"\s+#\s.*$", "", line).rstrip()
        if line[0].isspace() and found:
            found[-1] = (found[-1][0], found[-1][1] + " " + text.strip())
        else:
            found.append((number, text))
    # `a && b` is two commands.
    return [(number, part.strip()) for number, text in found for part in text.split("&&")]


def variants(command):
    """The concrete command lines a synopsis stands for: alternatives taken
    in turn (not every combination), optional parts left out once and put
    in once."""
    def slots(text):
        tokens = text.split()
        out = []
        i = 0
        while i < len(tokens):
            if tokens[i] == "|" and out:
                out[-1].append(tokens[i + 1])
                i += 2
                continue
            out.append(tokens[i].split("|"))
            i += 1
        return out

    plain = re.sub(r"\s*\[[^\[\]]*\]", "", command)
    full = re.sub(r"\[([^\[\]]*)\]", r"\1", command)
    lines = []
    for text in dict.fromkeys([plain, full]):
        parts = slots(text)
        for k in range(max(len(p) for p in parts)):
            words = []
            for p in parts:
                word = p[k % len(p)]
                if word in ("N", "X") and words and words[-1] in NUMBERS:
                    word = NUMBERS[words[-1]]
                words.append(PLACEHOLDERS.get(word, word))
            if words not in lines:
                lines.append(words)
    return lines


def run(program, *args, env=None, timeout=30, cwd=None):
    return subprocess.run([program, *args], capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)


def help_options(*argv):
    """Every --option a --help output names."""
    text = run(*argv, "--help").stdout
    return set(re.findall(r"--[a-z][a-z0-9-]*", text))


def check_stylusctl(number, words, d, cwd):
    words = [os.path.join(BIN, "stylusctl")] + words[1:]
    if words[1] == "watch":
        # Runs until stopped: its first line says what it watches, then it is stopped.
        proc = subprocess.Popen(words, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=d.env, cwd=cwd)
        try:
            first = proc.stdout.readline()
        finally:
            proc.kill()
            proc.wait()
        check(first.strip() != "", f"README line {number}: `{' '.join(words[1:])}` printed nothing: {proc.stderr.read()}")
        return
    if words[1:3] == ["config", "check"]:
        words[3:4] = [EXAMPLE_CONFIG]
    result = run(*words, env=d.env, cwd=cwd)
    said = result.stdout + result.stderr
    check("Usage:" not in said and result.returncode != 64,
          f"README line {number}: `{' '.join(words[1:])}` is not a command stylusctl knows: {said.strip()}")
    # 3 is the daemon's own refusal (docs/USAGE.md: exit statuses), an answer like any other.
    check(result.returncode in (0, 3),
          f"README line {number}: `{' '.join(words[1:])}` exited {result.returncode}: {said.strip()}")
    if "--svg" in words:
        svg = os.path.join(cwd, words[words.index("--svg") + 1])
        with open(svg) as f:
            check("<svg" in f.read(), f"README line {number}: {svg} is not an SVG")


def check_stylusd(number, words, d, cwd):
    argv = [os.path.join(BIN, "stylusd")]
    if len(words) > 1 and words[1] == "replay":
        argv.append("replay")
    known = help_options(*argv)
    for option in (w.split("=")[0] for w in words if w.startswith("--")):
        check(option in known, f"README line {number}: `stylusd {' '.join(argv[1:])}` has no option {option}")
    if argv[1:] == ["replay"]:
        args = [w for w in words[2:] if not w.startswith("--desc") and w != PLACEHOLDERS["FILE"]]
        result = run(*argv, RECORDING, *[w for w in args if w not in ("--desc",)], timeout=60)
        check(result.returncode == 0, f"README line {number}: `stylusd replay` on a recording exited {result.returncode}: {result.stderr.strip()}")


def make_targets():
    """The Makefile's targets, from make's database: `make -n` would run
    the recipes that call $(MAKE), test-deb's among them."""
    database = subprocess.run(["make", "-pRrq", "-f", "Makefile", "__readme_check__"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60).stdout
    return {m.group(1) for m in re.finditer(r"^([A-Za-z0-9][^$#/\t=:]*):(?!=)", database, re.M)}


def check_make(number, words):
    targets = make_targets()
    for target in (w for w in words[1:] if not w.startswith("-") and "=" not in w):
        check(target in targets, f"README line {number}: `make {target}` is no target of the Makefile")


def check_system_tool(number, words):
    if words[0] == "udevadm":
        sub = words[1]
        known = help_options("udevadm", sub)
        for option in (w for w in words[2:] if w.startswith("--")):
            check(option in known, f"README line {number}: `udevadm {sub}` has no option {option}")
    elif words[0] == "systemctl":
        for unit in (w for w in words if re.search(r"\.(socket|service|target)$", w)):
            check(os.path.exists(os.path.join(ROOT, "systemd", unit)), f"README line {number}: no unit {unit} in systemd/")
        check("--user" in words, f"README line {number}: stylusd's units are user units; `systemctl` needs --user")
    elif words[0] in ("apt", "apt-get") and words[1] == "install":
        # The package make deb builds (run by make test-deb): its name carries the program's version.
        version = run(os.path.join(BIN, "stylusd"), "--version").stdout.split()[-1]
        for package in (w for w in words[2:] if w.endswith(".deb")):
            check(package == f"./.build-deb/stylusd_{version}_amd64.deb",
                  f"README line {number}: make deb builds ./.build-deb/stylusd_{version}_amd64.deb, not {package}")
    else:
        raise stylustest.Failure(f"README line {number}: this check cannot read `{' '.join(words)}`")


def test_every_shell_command_in_the_readme(root):
    with open(os.path.join(ROOT, "README.md")) as f:
        commands = shell_lines(f.read())
    check(len(commands) >= 10, f"only {len(commands)} commands found in README.md's sh blocks")
    counts = {}
    with Daemon([os.path.join(BIN, "stylusd")], root, "--replay", RECORDING, "--loop", "--transition-ms", "0") as d, \
            tempfile.TemporaryDirectory(prefix="stylusd-readme-") as cwd:
        for number, command in commands:
            for words in variants(command):
                if words[0] == "sudo":
                    words = words[1:]
                kind = words[0]
                if kind == "stylusctl":
                    check_stylusctl(number, words, d, cwd)
                elif kind == "stylusd":
                    check_stylusd(number, words, d, cwd)
                elif kind == "make":
                    check_make(number, words)
                else:
                    check_system_tool(number, words)
                counts[kind] = counts.get(kind, 0) + 1
    print("    checked: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))


TESTS = [test_every_shell_command_in_the_readme]


def use_binaries(folder):
    global BIN
    BIN = folder


if __name__ == "__main__":
    sys.exit(stylustest.main_with_binaries("readme", TESTS, "stylusd-readme-", use_binaries))
