#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds the fuzz corpora from what the project already documents and ships:
the requests in docs/PROTOCOL.md, the recordings under Tests/Fixtures, and
the TOML examples in the README. Usage: Fuzz/seeds.py OUTDIR"""
import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def write(directory, data):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def protocol_seeds():
    requests = [line[3:] for line in (ROOT / "docs/PROTOCOL.md").read_text().splitlines()
                if line.startswith("C: ")]
    if not requests:
        sys.exit("fuzz_seeds: docs/PROTOCOL.md has no 'C: ' request lines")
    for request in requests:
        yield (request + "\n").encode()
    # Several requests in one read, CRLF endings, and a line left unfinished.
    yield ("\r\n".join(requests) + "\r\n").encode()
    yield ("\n".join(requests)).encode()


def evemu_seeds(limit=16 * 1024):
    recordings = ROOT / "Tests/Fixtures/recordings"
    files = sorted(p for p in recordings.rglob("*") if p.suffix in (".events", ".desc", ".device"))
    if not files:
        sys.exit(f"fuzz_seeds: no recordings under {recordings}")
    for path in files:
        data = path.read_bytes()
        if len(data) > limit:
            data = data[: data.rindex(b"\n", 0, limit) + 1]
        yield data


def config_seeds():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```toml\n(.*?)```", readme, re.S)
    if not blocks:
        sys.exit("fuzz_seeds: README.md has no ```toml example")
    for block in blocks:
        yield block.encode()
    for preset in ("default", "precision", "fast", "accessibility"):
        yield f'preset = "{preset}"\n'.encode()
    yield b'[bindings]\n"pad-3" = "toggle-precision"\nBTN_STYLUS3 = "none"\n'


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    counts = {}
    for name, seeds in (("protocol", protocol_seeds()), ("evemu", evemu_seeds()), ("config", config_seeds())):
        counts[name] = 0
        for data in seeds:
            write(out / name, data)
            counts[name] += 1
    print("fuzz seeds:", ", ".join(f"{name} {n}" for name, n in counts.items()))


main()
