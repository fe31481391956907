#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/ARCHITECTURE.md stays true to the packages: every target of
Package.swift and Overlay/Package.swift (test targets are covered by the
"Tests, and where they live" section) is named in its import table, and every
relative link in README.md, CONTRIBUTING.md and docs/*.md points at a file
that exists. No binaries needed.

    python3 Tests/docs/architecture_test.py"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = re.compile(r'\.(target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"')
LINK = re.compile(r'\]\(([^)#\s]+)(?:#[^)]*)?\)')


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def main():
    problems, checks = [], 0
    architecture = read("docs/ARCHITECTURE.md")
    table = "\n".join(l for l in architecture.splitlines() if l.startswith("|"))
    for package in ("Package.swift", "Overlay/Package.swift"):
        for kind, name in TARGET.findall(read(package)):
            checks += 1
            if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", table):
                problems.append(f"{package}: the {kind} {name} is not named in docs/ARCHITECTURE.md's module table")
    docs = ["README.md", "CONTRIBUTING.md"] + [os.path.join("docs", n) for n in sorted(os.listdir(os.path.join(ROOT, "docs")))
                                               if n.endswith(".md")]
    for doc in docs:
        for target in LINK.findall(read(doc)):
            if re.match(r"[a-z]+:", target):
                continue
            checks += 1
            path = os.path.normpath(os.path.join(ROOT, os.path.dirname(doc), target))
            if not os.path.exists(path):
                problems.append(f"{doc}: the link {target} points at nothing")
    for p in problems:
        print(f"FAIL {p}")
    print(f"architecture: {checks - len(problems)} passed, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
