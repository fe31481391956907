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
from daemon import Daemon  # noqa: E402
from stylustest import check  # noqa: E402
RECORDING = os.path.join(ROOT, "Tests", "Fixtures", "recordings", "Wacom_Cintiq_22HDT_Pen.events")
BIN = None


def run(program, *args, env=None):
    return subprocess.run([os.path.join(BIN, program), *args], capture_output=True, text=True, timeout=30, env=env)


def daemon(root, *args):
    return Daemon([os.path.join(BIN, "stylusd")], root, *args)


def test_stylusd_help_shows_the_daemons_options(root):
    for flag in ("--help", "-h", "help"):
        r = run("stylusd", flag)
        check(r.returncode == 0, f"{flag}: {r.returncode} {r.stderr}")
        for option in ("--seat", "--device", "--replay", "--loop", "--socket", "--state-file", "--bind", "probe", "replay"):
            check(option in r.stdout, f"stylusd {flag} does not show {option}")


def test_stylusctl_help_lists_every_action_in_a_table_that_fits_80_columns(root):
    r = run("stylusctl", "--help", env={**os.environ, "COLUMNS": "80"})
    check(r.returncode == 0, f"{r.returncode} {r.stderr}")
    lines = r.stdout.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Double-press actions")) + 2
    table = lines[start:lines.index("", start)]
    for action in ("toggle-canvas", "tool:eraser", "color:next", "width:+", "palette", "submit", "discard", "none"):
        check(any(l.startswith(f"  {action} ") for l in table), f"the actions table has no row for {action}: {table}")
    column = table[0].index("opens")
    for line in table:
        check(len(line) <= 80, f"a line of the actions table runs past 80 columns: {line!r}")
        check(line.startswith("  ") and line[column - 1] == " " and line[column] != " ",
              f"a line of the actions table does not start its words at column {column}: {line!r}")
    continued = " ".join(l.strip() for l in table if not l[:column].strip())
    check("ellipse, text or previous" in continued, f"the tool row's second line lost the rest of the tools: {table}")


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


def test_config_check_without_a_file_checks_the_one_stylusd_reads(root):
    folder = os.path.join(root, "xdg", "stylusd")
    os.makedirs(folder)
    with open(os.path.join(folder, "config.toml"), "w") as f:
        f.write("interval_ms = 5000\n")
    r = run("stylusctl", "config", "check", env=dict(os.environ, XDG_CONFIG_HOME=os.path.join(root, "xdg")))
    check(r.returncode == 78 and f"{folder}/config.toml:1:" in r.stderr, f"{r.returncode} {r.stderr!r}")


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


def test_tool_sets_and_says_the_style_and_a_bad_width_names_the_range(root):
    with daemon(root) as d:
        r = run("stylusctl", "tool", "highlighter", "--color", "#edd400", "--width", "12", env=d.env)
        check(r.returncode == 0 and r.stdout == "tool       highlighter, #edd400, width 12\n", f"{r.returncode} {r.stdout!r} {r.stderr!r}")
        r = run("stylusctl", "tool", "--width", "0", env=d.env)
        check(r.returncode == 64 and "1 to 64" in r.stderr and "not 0" in r.stderr, f"{r.returncode} {r.stderr!r}")
        r = run("stylusctl", "tool", "--width", "-3", env=d.env)
        check(r.returncode == 64 and "1 to 64" in r.stderr and "not -3" in r.stderr, f"a negative width: {r.returncode} {r.stderr!r}")
        for huge, said in (("inf", "not inf"), ("1e300", "not 1e+300")):
            r = run("stylusctl", "tool", "--width", huge, env=d.env)
            check(r.returncode == 64 and "1 to 64" in r.stderr and said in r.stderr, f"width {huge}: {r.returncode} {r.stderr!r}")
        r = run("stylusctl", "export", "a.png", "--width", "-3", "--height", "10", env=d.env)
        check(r.returncode == 64 and "--width takes 1 to 8192" in r.stderr and "not -3" in r.stderr,
              f"a negative export width: {r.returncode} {r.stderr!r}")
        r = run("stylusctl", "tool", "brush", env=d.env)
        check(r.returncode == 64 and '"brush"' in r.stderr and "pen, highlighter, eraser" in r.stderr, f"{r.returncode} {r.stderr!r}")
        r = run("stylusctl", "tool", env=d.env)
        check(r.returncode == 0 and r.stdout == "tool       highlighter, #edd400, width 12\n", f"unchanged by the refusals: {r.stdout!r}")
        check(d.stop() == 0, "no clean exit")


def test_palette_shows_and_hides_and_a_typo_gets_a_suggestion(root):
    with daemon(root) as d:
        r = run("stylusctl", "palette", "show", env=d.env)
        check(r.returncode == 0 and r.stdout == "tool       pen, #d61a1c, width 8, palette shown\n", f"{r.returncode} {r.stdout!r} {r.stderr!r}")
        r = run("stylusctl", "palette", "show", env=d.env)
        check(r.returncode == 0 and r.stdout.startswith("unchanged: the palette is already shown\n"), f"{r.stdout!r}")
        r = run("stylusctl", "palette", "hid", env=d.env)
        check(r.returncode == 64 and '"hid"' in r.stderr and "hide" in r.stderr, f"{r.returncode} {r.stderr!r}")
        r = run("stylusctl", "palette", "toggle", env=d.env)
        check(r.returncode == 0 and r.stdout == "tool       pen, #d61a1c, width 8\n", f"hidden again: {r.stdout!r}")
        check(d.stop() == 0, "no clean exit")


def png_pixels(path):
    """An 8-bit RGB or RGBA PNG (as rsvg-convert writes it) as (width, rows of (r, g, b))."""
    import struct
    import zlib
    data = open(path, "rb").read()
    chunks, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunks.setdefault(kind, b"")
        chunks[kind] += data[at + 8:at + 8 + length]
        at += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    check(depth == 8 and color in (2, 6), f"PNG depth {depth} colour type {color}")
    n = 4 if color == 6 else 3
    raw, rows, previous = zlib.decompress(chunks[b"IDAT"]), [], bytearray(width * n)
    for y in range(height):
        line = raw[y * (width * n + 1):(y + 1) * (width * n + 1)]
        kind, row = line[0], bytearray(line[1:])
        for i in range(len(row)):
            a = row[i - n] if i >= n else 0
            b, c = previous[i], previous[i - n] if i >= n else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(row[x * n:x * n + 3]) for x in range(width)])
        previous = row
    return width, rows


def test_strokes_svg_draws_the_eraser_as_erasing_in_stroke_order(root):
    """A version 1 state file (red pen strokes and an eraser stroke), drawn by strokes --svg
    and rendered by rsvg-convert: the eraser clears the line drawn before it, not the one after."""
    if not shutil.which("rsvg-convert"):
        print("  (skipped: no rsvg-convert; apt install librsvg2-bin)")
        return
    state = os.path.join(root, "state", "stylusd")
    os.makedirs(state, mode=0o700, exist_ok=True)
    strokes = [("pen", [(0.1, 0.5), (0.9, 0.5)]), ("eraser", [(0.5, 0.2), (0.5, 0.8)]), ("pen", [(0.5, 0.3), (0.5, 0.7)])]
    columns = [{"device": 1, "tool": tool, "x": [p[0] for p in points], "y": [p[1] for p in points], "pressure": [1.0, 1.0],
                "tilt_x": [0.0, 0.0], "tilt_y": [0.0, 0.0], "time_us": [0, 1000]} for tool, points in strokes]
    with open(os.path.join(state, "state.json"), "w") as f:
        json.dump({"version": 1, "canvas": "open", "precision_enabled": False, "strokes": columns}, f)
    svg, png = os.path.join(root, "d.svg"), os.path.join(root, "d.png")
    with daemon(root) as d:
        d.wait_log("restored the canvas")
        r = run("stylusctl", "strokes", "--svg", svg, "--size", "400x200", env=d.env)
        check(r.returncode == 0 and r.stdout == f"{svg}: 3 strokes, 400×200\n", f"{r.returncode} {r.stdout!r} {r.stderr!r}")
    # The SVG is transparent where there is no ink (no board shown), as the export's PNG is: rendered on white here.
    r = subprocess.run(["rsvg-convert", "-b", "white", "-o", png, svg], capture_output=True, text=True, timeout=30)
    check(r.returncode == 0, f"rsvg-convert: {r.stderr}")
    width, rows = png_pixels(png)
    check((width, len(rows)) == (400, 200), f"{width}×{len(rows)}")
    red, white = (0xd6, 0x1a, 0x1c), (255, 255, 255)
    # The pen at full pressure: 8 at 1600 wide, 2 px at 400; the eraser three times as wide, 6 px.
    check(rows[100][80] == red and rows[100][320] == red, f"the first line: {rows[100][80]} {rows[100][320]}")
    check(rows[100][197] == white and rows[100][202] == white, f"not erased: {rows[100][197]} {rows[100][202]}")
    check(rows[100][200] == red and rows[70][200] == red, f"the line drawn after the eraser: {rows[100][200]} {rows[70][200]}")
    check(rows[50][200] == white, f"{rows[50][200]}")

TESTS = [test_stylusd_help_shows_the_daemons_options,
         test_stylusctl_help_lists_every_action_in_a_table_that_fits_80_columns, test_version_on_both,
         test_a_typo_gets_a_suggestion, test_replay_options_without_replay_are_refused,
         test_a_start_error_is_one_line_without_usage, test_an_unknown_seat_is_said,
         test_a_missing_device_node_gives_one_reason, test_watch_says_at_once_what_it_watches,
         test_a_replay_end_is_logged_and_devices_shows_the_recorded_pen,
         test_probe_json_is_snake_case_with_plain_slashes, test_config_check_reports_every_problem,
         test_config_check_accepts_the_example, test_config_check_without_a_file_checks_the_one_stylusd_reads,
         test_bash_completes_commands_topics_actions_bindings_and_files,
         test_zsh_completes_commands_topics_actions_bindings_and_files,
         test_fish_completes_commands_topics_actions_bindings_and_files,
         test_tool_sets_and_says_the_style_and_a_bad_width_names_the_range,
         test_palette_shows_and_hides_and_a_typo_gets_a_suggestion,
         test_strokes_svg_draws_the_eraser_as_erasing_in_stroke_order]


def use_binaries(folder):
    global BIN
    BIN = folder


if __name__ == "__main__":
    sys.exit(stylustest.main_with_binaries("cli", TESTS, "stylusd-cli-", use_binaries))
