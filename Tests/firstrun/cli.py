#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The command lines of stylusd and stylusctl as a new user meets them:
help, version, typos, options that need another, an unknown seat, a
missing --device node, watch's first line, the end of a replay, devices
during a replay, probe --json, config check, and what bash, zsh and fish
complete (each shell driven for real). Processes only; the pure logic has
Swift tests. Prints 'N passed, N failed'.

    python3 Tests/firstrun/cli.py --bin .build-static/release [--only NAME]"""
import json
import os
import re
import select
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
import stylustest  # noqa: E402
from stylustest import check  # noqa: E402
RECORDING = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "Wacom_Cintiq_22HDT_Pen.events")
BIN = None


def run(program, *args, env=None):
    return subprocess.run([os.path.join(BIN, program), *args], capture_output=True, text=True, timeout=30, env=env)


def daemon(root, *args):
    return stylustest.Daemon([os.path.join(BIN, "stylusd")], root, *args)


def test_stylusd_help_shows_the_daemons_options(root):
    for flag in ("--help", "-h", "help"):
        r = run("stylusd", flag)
        check(r.returncode == 0, f"{flag}: {r.returncode} {r.stderr}")
        for option in ("--seat", "--device", "--replay", "--loop", "--socket", "--state-file", "--bind", "probe", "replay"):
            check(option in r.stdout, f"stylusd {flag} does not show {option}")


def test_version_on_both(root):
    versions = [run(p, "--version") for p in ("stylusd", "stylusctl")]
    for r in versions:
        check(r.returncode == 0 and re.fullmatch(r"\d+\.\d+\.\d+\S*\n", r.stdout), f"--version: {r.returncode} {r.stdout!r} {r.stderr!r}")
    check(versions[0].stdout == versions[1].stdout, "the two programs give different versions")


def test_a_typo_gets_a_suggestion(root):
    r = run("stylusctl", "togle")
    check(r.returncode == 64, f"exit {r.returncode}")
    check(r.stderr == 'stylusctl: unknown command "togle"; did you mean "toggle"?\n', f"{r.stderr!r}")
    r = run("stylusctl", "watch", "canvs")
    check('did you mean "canvas"?' in r.stderr, f"{r.stderr!r}")


def test_replay_options_without_replay_are_refused(root):
    for args, named in ((["--loop"], "--loop"), (["--speed", "2"], "--speed"), (["--loop", "--speed", "3"], "--loop and --speed")):
        r = run("stylusd", *args)
        check(r.returncode == 64 and f"{named} appl" in r.stderr and "--replay" in r.stderr, f"{args}: {r.returncode} {r.stderr!r}")


def test_a_start_error_is_one_line_without_usage(root):
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_RUNTIME_DIR", "STYLUSD_SOCKET")}
    r = run("stylusd", env=env)
    check(r.returncode == 64, f"exit {r.returncode}")
    check(r.stderr.startswith("stylusd: XDG_RUNTIME_DIR is not set") and r.stderr.count("\n") == 1, f"{r.stderr!r}")


def test_an_unknown_seat_is_said(root):
    with daemon(root, "--seat", "seta0") as d:
        check(any('seat "seta0"' in line for line in d.log), f"nothing said about the seat: {d.log}")
        check(d.stop() == 0, "no clean exit")


def test_a_missing_device_node_gives_one_reason(root):
    node = "/dev/input/event999"
    with daemon(root, "--device", node) as d:
        d.wait_log(f"cannot use {node}: no such device node")
        mentions = [line for line in d.log if "event999" in line or "/dev/input" in line]
        check(len(mentions) == 1, f"not one reason: {mentions}")
        check(not any("client bug" in line for line in d.log), f"libinput's client bug: {d.log}")
        status = json.loads(run("stylusctl", "status", "--json", env=d.env).stdout)
        check(status["input"]["reason"].startswith(f"cannot use {node}"), f"{status['input']}")
        check(d.stop() == 0, "no clean exit")


def test_watch_says_at_once_what_it_watches(root):
    with daemon(root) as d:
        watch = subprocess.Popen([os.path.join(BIN, "stylusctl"), "watch", "canvas"], env=d.env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            ready, _, _ = select.select([watch.stderr], [], [], 5)
            check(ready, "watch printed nothing within 5 s")
            line = watch.stderr.readline()
            check(line.startswith("watching canvas (Ctrl-C stops); now: canvas minimized (0 strokes)"), f"{line!r}")
        finally:
            watch.terminate()
            watch.wait(timeout=10)
        check(d.stop() == 0, "no clean exit")


def test_a_replay_end_is_logged_and_devices_shows_the_recorded_pen(root):
    with daemon(root, "--replay", RECORDING, "--speed", "1000") as d:
        d.wait_log("ended; the recorded pen stays")
        devices = run("stylusctl", "devices", env=d.env)
        check(devices.returncode == 0 and "Wacom Cintiq 22HDT Pen (recording)  pen" in devices.stdout and "no pen" not in devices.stdout,
              f"{devices.stdout!r} {devices.stderr!r}")
        status = run("stylusctl", "status", env=d.env)
        check("input      pen: Wacom Cintiq 22HDT Pen (recording)" in status.stdout, f"{status.stdout!r}")
        check(d.stop() == 0, "no clean exit")


def keys(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner)


def test_probe_json_is_snake_case_with_plain_slashes(root):
    r = run("stylusd", "probe", "--json")
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    check("\\/" not in r.stdout, "slashes are escaped")
    report = json.loads(r.stdout)
    odd = [k for k in keys(report) if not re.fullmatch(r"[a-z0-9_]+", k)]
    check(not odd, f"keys that are not snake_case: {odd}")


def test_config_check_reports_every_problem(root):
    path = os.path.join(root, "bad.toml")
    with open(path, "w") as f:
        f.write('preset = "turbo"\ninterval_ms = 5000\ncolour = 1\n')
    r = run("stylusctl", "config", "check", path)
    check(r.returncode == 78, f"exit {r.returncode}")
    lines = r.stderr.splitlines()
    check(len(lines) == 3 and [f"{path}:{n}:" in line for n, line in zip((1, 2, 3), lines)] == [True] * 3, f"{r.stderr!r}")


def test_config_check_accepts_the_example(root):
    r = run("stylusctl", "config", "check", os.path.join(ROOT, "examples", "config.toml"))
    check(r.returncode == 0 and r.stdout.endswith("config.toml: OK (interval 500 ms, debounce 25 ms, transition 250 ms)\n"),
          f"{r.returncode} {r.stdout!r} {r.stderr!r}")


def bash_completions(root, program, *words):
    """What bash offers after `program words…` with the program's own completion script, in `root`
    (through the function the script registers with `complete`)."""
    script = os.path.join(root, f"{program}.bash")
    with open(script, "w") as f:
        f.write(run(program, "--generate-completion-script", "bash").stdout)
    line = " ".join((program,) + words)
    harness = (f'source {script}\nCOMP_WORDS=({" ".join(repr(w) for w in (program,) + words)})\n'
               f'COMP_CWORD={len(words)}; COMP_LINE={line!r}; COMP_POINT={len(line)}\n'
               f'function=$(complete -p {program} | sed "s/.*-F \\([^ ]*\\).*/\\1/")\n'
               f'"$function" {program} {words[-1]!r} {((program,) + words)[-2]!r}\nprintf "%s\\n" "${{COMPREPLY[@]}}"\n')
    r = subprocess.run(["bash", "-c", harness], cwd=root, capture_output=True, text=True, timeout=20,
                       env=dict(os.environ, PATH=BIN + ":" + os.environ["PATH"]))
    return set(r.stdout.split())


# Drives an interactive zsh on a pseudo-terminal (the zpty module), as a user
# at a prompt: compinit finds the script where zsh looks for installed ones
# (its folder on fpath, named _PROGRAM), the line is typed, then TAB. Every
# match the completion system adds (after its own filtering by what is
# typed) is appended to OUT by a compadd wrapper; calls that only ask for
# matches (-O, -A, -D) pass through. Typing waits for the prompt: zle drops
# what arrives while a command runs. Arguments: FOLDER OUT LINE.
ZSH_DRIVER = r"""
zmodload zsh/zpty || exit 3
local folder=$1 out=$2 line=$3 seen
zpty -b shell zsh -f -i
zpty -w shell "PS1=\$'\\x3eready\\x3e' RPS1=''; unsetopt auto_list auto_menu beep prompt_sp; fpath=(${(q)folder} \$fpath); autoload -Uz compinit; compinit -u -d ${(q)folder}/.zcompdump"
zpty -w shell 'compadd() { if (( ${@[(I)-[ODA]*]} )); then builtin compadd "$@"; return; fi; local -a found; builtin compadd -O found "$@"; (( $#found )) && print -rl -- "${found[@]}" >> '${(q)out}'; builtin compadd "$@"; }'
zpty -r shell seen '*>ready>*>ready>*'
zpty -w -n shell "$line"$'\t'
zpty -w -n shell $'\C-u'
zpty -w shell 'print completed-$((6*7))'
zpty -r shell seen '*completed-42*'
zpty -d shell
"""


def shell_env():
    return dict(os.environ, PATH=BIN + ":" + os.environ["PATH"])


def zsh_completions(root, program, *words):
    """What zsh's completion system offers after `program words…` (TAB at the end of the line),
    with the program's zsh script installed as zsh finds it, in `root`."""
    folder = os.path.join(root, "zsh-functions")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"_{program}"), "w") as f:
        f.write(run(program, "--generate-completion-script", "zsh").stdout)
    driver, out = os.path.join(root, "drive.zsh"), os.path.join(root, "zsh-offered")
    with open(driver, "w") as f:
        f.write(ZSH_DRIVER)
    if os.path.exists(out):
        os.remove(out)
    line = " ".join((program,) + words)
    r = subprocess.run(["zsh", "-f", driver, folder, out, line], cwd=root, capture_output=True, text=True,
                       timeout=30, env=shell_env())
    check(r.returncode == 0, f"the zsh driver failed on {line!r}: {r.returncode} {r.stderr!r}")
    if not os.path.exists(out):
        return set()
    with open(out) as f:
        return set(f.read().split())


def fish_completions(root, program, *words):
    """What fish offers after `program words…` (`complete -C`), with the program's fish script
    installed as fish finds it (PROGRAM.fish in a folder on fish_complete_path), in `root`."""
    folder = os.path.join(root, "fish-completions")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{program}.fish"), "w") as f:
        f.write(run(program, "--generate-completion-script", "fish").stdout)
    line = " ".join((program,) + words)
    command = f"set -p fish_complete_path {shlex.quote(folder)}; complete -C {shlex.quote(line)}"
    r = subprocess.run(["fish", "--no-config", "-c", command], cwd=root, capture_output=True, text=True,
                       timeout=30, env=shell_env())
    check(r.returncode == 0, f"fish failed on {line!r}: {r.returncode} {r.stderr!r}")
    return {entry.split("\t")[0].rstrip("/") for entry in r.stdout.splitlines()}


STYLUSCTL_COMMANDS = {"toggle", "watch", "undo", "precision", "output", "config", "completions", "devices"}
BINDINGS = {"BTN_STYLUS=toggle-canvas", "BTN_STYLUS2=toggle-precision", "BTN_STYLUS2=undo", "BTN_STYLUS3=none"}
DAEMON_OPTIONS = {"--seat", "--device", "--replay", "--socket", "--config", "--bind", "--output", "--json"}
# (program, words typed, what must be offered, what must not be). The last
# word is the one completed ("" after a space). c.txt is a file of no kind asked for.
COMPLETION_CASES = [
    ("stylusctl", ("",), STYLUSCTL_COMMANDS, {"c.txt"}),
    ("stylusctl", ("watch", ""), {"canvas", "double-press", "precision", "device", "pen"}, {"c.txt", "toggle"}),
    ("stylusctl", ("precision", ""), {"enable", "disable", "toggle"}, {"c.txt", "watch"}),
    ("stylusctl", ("output", ""), {"observe", "filter", "auto"}, {"c.txt", "watch"}),
    ("stylusctl", ("completions", ""), {"bash", "zsh", "fish"}, {"c.txt"}),
    ("stylusctl", ("config", "check", ""), {"a.toml"}, {"c.txt", "b.events"}),
    ("stylusd", ("",), {"run", "probe", "replay"}, {"c.txt"}),
    ("stylusd", ("-",), DAEMON_OPTIONS, {"probe"}),
    ("stylusd", ("--so",), {"--socket"}, {"--seat", "probe"}),
    ("stylusd", ("--output", ""), {"observe", "filter", "auto"}, {"c.txt", "probe", "--socket"}),
    ("stylusd", ("--bind", ""), BINDINGS, {"c.txt", "probe"}),
    ("stylusd", ("--socket", "/x", "--ou"), {"--output"}, {"probe"}),
    ("stylusd", ("--replay", ""), {"b.events"}, {"c.txt", "a.toml"}),
    ("stylusd", ("--config", ""), {"a.toml"}, {"c.txt", "b.events"}),
    ("stylusd", ("run", "--so"), {"--socket"}, set()),
    ("stylusd", ("probe", "--"), {"--json"}, {"--socket", "--bind", "--output"}),
    ("stylusd", ("replay", ""), {"b.events"}, {"c.txt", "a.toml", "probe"}),
]


def check_completions(root, shell, complete):
    for name in ("a.toml", "b.events", "c.txt"):
        open(os.path.join(root, name), "w").close()
    for program, words, wanted, unwanted in COMPLETION_CASES:
        offered = complete(root, program, *words)
        typed = f"{program} {' '.join(words)}<TAB>"
        check(wanted <= offered, f"{shell}: {typed} offers {sorted(offered)}, not all of {sorted(wanted)}")
        check(not unwanted & offered, f"{shell}: {typed} offers {sorted(unwanted & offered)}")


def shell_to_test(shell):
    """True when `shell` is here to drive; as root a missing shell fails (make test-firstrun installs it)."""
    if shutil.which(shell):
        return True
    check(os.geteuid() != 0, f"{shell} is not installed (make test-firstrun installs it)")
    print(f"SKIPPED: {shell}'s completions are not driven: {shell} is not installed and only root can install it "
          f"(sudo apt-get install {shell})", flush=True)
    return False


def test_bash_completes_commands_topics_actions_bindings_and_files(root):
    check_completions(root, "bash", bash_completions)


def test_zsh_completes_commands_topics_actions_bindings_and_files(root):
    if shell_to_test("zsh"):
        check_completions(root, "zsh", zsh_completions)


def test_fish_completes_commands_topics_actions_bindings_and_files(root):
    if shell_to_test("fish"):
        check_completions(root, "fish", fish_completions)


TESTS = [v for k, v in list(globals().items()) if k.startswith("test_")]


def use_binaries(folder):
    global BIN
    BIN = folder


if __name__ == "__main__":
    sys.exit(stylustest.main_with_binaries("cli", TESTS, "stylusd-cli-", use_binaries))
