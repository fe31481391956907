# SPDX-License-Identifier: MIT
"""The canvas's palette as Sources/CanvasModel/canvas-spec.json gives it:
its colours, and where each button is for a screen size (the spec's
vectors, the figures CanvasModel's PaletteLayout is checked against), so
that the suites do not redo the layout's arithmetic. Standard library only."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH = os.path.join(ROOT, "Sources", "CanvasModel", "canvas-spec.json")
_spec = []


def spec():
    """The whole file, read once."""
    if not _spec:
        with open(PATH) as f:
            _spec.append(json.load(f))
    return _spec[0]


def palette_colors():
    """The default palette's colours, in order ("#rrggbb")."""
    return list(spec()["constants"]["palette"]["colors"])


def palette_buttons(width, height):
    """The buttons of the palette on a `width` x `height` window (window pixels:
    x, y its top-left corner, side its width and height)."""
    for vector in spec()["vectors"]["palette"]:
        if (vector["width"], vector["height"]) == (width, height):
            return vector["buttons"]
    sizes = ", ".join(f"{v['width']}x{v['height']}" for v in spec()["vectors"]["palette"])
    raise LookupError(f"{os.path.relpath(PATH, ROOT)} has no palette vector for {width}x{height} (it has {sizes})")


def palette_swatch_centres(width, height):
    """The centre of each colour button, in the palette's order, as whole pixels."""
    return [(int(b["x"] + b["side"] / 2), int(b["y"] + b["side"] / 2))
            for b in palette_buttons(width, height) if b["kind"] == "color"]


def indicator_border():
    """How far in from a monitor's edges the open canvas's frame reaches (`[canvas] indicator`'s
    default, `frame`): pixel checks about the ink leave that band to the indicator's own test."""
    return int(spec()["constants"]["indicator"]["frameWidth"])


def indicator_rects(kind, width, height):
    """The indicator's rectangles (x, y, width, height) on a monitor, as the spec's vectors give them."""
    c = spec()["constants"]["indicator"]
    if kind == "frame":
        w = c["frameWidth"]
        return [(0, 0, width, w), (0, height - w, width, w), (0, w, w, height - 2 * w), (width - w, w, w, height - 2 * w)]
    if kind == "badge":
        r = c["badgeRadius"] + c["badgeOutline"] + 1
        x, y = width - c["badgeInset"], c["badgeInset"]
        return [(int(x - r), int(y - r), 2 * r + 2, 2 * r + 2)]
    return []


def help_layout(width, height, lines):
    """The help overlay on a `width` x `height` window with `lines` lines, as the spec's
    `help` vector for that size gives it: panel [x, y, width, height], title [x, baseline],
    rows [[key x, label x, baseline], …]."""
    for vector in spec()["vectors"]["help"]:
        if (vector["width"], vector["height"], vector["lines"]) == (width, height, lines):
            return vector
    sizes = ", ".join(f"{v['width']}x{v['height']} ({v['lines']} lines)" for v in spec()["vectors"]["help"])
    raise LookupError(f"{os.path.relpath(PATH, ROOT)} has no help vector for {width}x{height}, {lines} lines (it has {sizes})")


def help_default_lines():
    """How many lines the help shows for the default keys: its own, then one per action."""
    return 1 + len(set(spec()["constants"]["keys"].values()))
