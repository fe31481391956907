#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Records a real session with stylusd for docs/PROTOCOL.md: one markdown
section per command, client lines as `C:`, daemon lines as `S:`.

usage: protocol_transcript.py STYLUSD > transcript.md
Starts its own daemon in a temporary runtime directory; a recording drives
the pen so that strokes, double presses and pen samples appear."""
import json, os, socket, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "support"))
from stylustest import Daemon, private_directory  # noqa: E402

RECORDING = os.path.join(HERE, "..", "Tests", "Fixtures", "recordings", "Wacom_DTH2242_Pen.events")


class Session:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.lines = [("S", self.file.readline().decode().rstrip())]

    def send(self, raw, until=None, events=0):
        """Sends a line, then collects daemon lines until the response (and `events` more events)."""
        self.lines.append(("C", raw))
        self.sock.sendall(raw.encode() + b"\n")
        got_response = False
        while not got_response or events > 0:
            line = self.file.readline().decode().rstrip()
            if not line:
                break
            message = json.loads(line)
            if "event" in message:
                if until and not until(message):
                    continue
                events -= 1
            else:
                got_response = True
            self.lines.append(("S", line))

    def take(self):
        lines, self.lines = self.lines, []
        return lines


def section(title, lines, note=""):
    print(f"### {title}\n")
    if note:
        print(note + "\n")
    print("```")
    for who, line in lines:
        if len(line) > 600:
            line = line[:600] + " …"
        print(f"{who}: {line}")
    print("```\n")


def main(stylusd):
    with private_directory("stylusd-transcript-") as root, \
            Daemon([stylusd], root, "--replay", RECORDING, "--loop", "--bind", "BTN_STYLUS2=toggle-canvas",
                   env={"XDG_PICTURES_DIR": os.path.join(root, "Pictures")}) as daemon:
        s = Session(daemon.socket)
        section("Connecting: `hello`", s.take())
        s.send('{"id":1,"cmd":"status"}'); section("`status`", s.take())
        s.send('{"id":2,"cmd":"subscribe"}')
        section("`subscribe`", s.take(), "Without `topics`, every topic but `pen` and `button`.")
        s.send('{"id":3,"cmd":"toggle"}', events=1); section("`toggle`", s.take(), "The event reaches every subscriber; the response carries the new status.")
        s.send('{"id":4,"cmd":"ack"}', events=1); section("`ack`", s.take(), "The overlay finished drawing its transition.")
        s.send('{"id":5,"cmd":"open"}'); section("`open` (nothing to do)", s.take())
        s.send('{"id":6,"cmd":"toggle"}', events=1)
        s.send('{"id":7,"cmd":"toggle"}'); section("A toggle during a transition is refused", s.take())
        time.sleep(0.4)
        s.send('{"id":8,"cmd":"minimize"}', events=0); section("`minimize`", s.take())
        s.send('{"id":9,"cmd":"precision","action":"toggle"}', events=1); section("`precision`", s.take(), '`action` is `enable`, `disable` or `toggle`.')
        s.send('{"id":10,"cmd":"open"}', events=2, until=lambda m: m["event"] == "canvas"); s.take()
        s.send('{"id":11,"cmd":"subscribe","topics":["canvas"]}', events=1, until=lambda m: m["event"] == "stroke")
        section("Strokes drawn on the open canvas", s.take(), "The recording draws; each finished stroke is reported.")
        s.send('{"id":12,"cmd":"strokes"}'); section("`strokes`", s.take(), "Each point is `[x, y, pressure, tilt_x, tilt_y, time_us]`, x and y normalised 0…1.")
        s.send('{"id":"undo-1","cmd":"undo"}', events=1, until=lambda m: m["event"] == "canvas")
        section("`undo`", s.take(), "Removes the last finished stroke; subscribers get a canvas event with cause `undo`.")
        s.send('{"id":"redo-1","cmd":"redo"}', events=1, until=lambda m: m["event"] == "canvas")
        section("`redo`", s.take(), "Takes again what undo took back, until a stroke, an erase, a clear, a discard or a submit changes the drawing; the canvas event has cause `redo`.")
        s.send('{"id":"redo-2","cmd":"redo"}'); section("`redo` with nothing to redo", s.take())
        s.send('{"id":13,"cmd":"clear"}', events=1, until=lambda m: m["event"] == "canvas"); section("`clear`", s.take())
        s.send('{"id":"undo-2","cmd":"undo"}', events=1, until=lambda m: m["event"] == "canvas")
        section("`undo` after `clear`", s.take(), "Takes back the clear: every stroke returns.")
        s.send('{"id":"tool-1","cmd":"tool"}'); section("`tool`", s.take(), "Without fields: the status, whose `tool` is the style the next stroke gets.")
        s.send('{"id":"tool-2","cmd":"tool","tool":"highlighter","color":"#edd400","width":12}', events=1,
               until=lambda m: m["event"] == "tool")
        section("`tool` setting the style", s.take(), "Any of `tool`, `color`, `width`; the others stay. Subscribers of `tool` get the event.")
        compact = dict(separators=(",", ":"))
        s.send(json.dumps({"id": "export-1", "cmd": "export", "path": os.path.join(root, "drawing.svg"), "width": 800, "height": 450}, **compact))
        section("`export`", s.take(), "A helper writes the file; the answer comes when it is written. A `.png` is drawn by "
                "stylus-canvas's renderer, a `.svg` by stylusd itself. The drawing is unchanged.")
        s.send(json.dumps({"id": "export-2", "cmd": "export", "path": os.path.join(root, "nope", "a.png")}, **compact))
        s.send('{"id":"export-3","cmd":"export","path":"/tmp/a.webp"}')
        s.send('{"id":"export-4","cmd":"export","path":"/tmp/a.png","width":0,"height":600}')
        section("`export` errors", s.take(), "Each names the value and what is accepted; nothing is written and the drawing is unchanged.")
        s.send('{"id":"discard-1","cmd":"discard"}', events=3, until=lambda m: m["event"] == "canvas")
        section("`discard`", s.take(), "Ends the drawing as `cancelled`: its own event, a clear, and the minimize, whose events "
                "carry the same `result`. `undo` brings the strokes back.")
        s.send('{"id":"undo-3","cmd":"undo"}'); s.take()
        time.sleep(0.4)   # the minimize's transition ends
        if os.environ.get("STYLUSD_RENDERER"):
            # A submit waits until an opening canvas is open.
            s.send('{"id":"open-2","cmd":"open"}', events=1, until=lambda m: m["event"] == "canvas" and m["state"] == "open"); s.take()
            s.send('{"id":"submit-1","cmd":"submit"}', events=3, until=lambda m: m["event"] == "canvas")
            section("`submit`", s.take(), "Writes a PNG into the export folder, named by the local date and time, then ends the "
                    "drawing as `submitted` (the file's path on the first event), clears and minimizes.")
            s.send('{"id":"undo-4","cmd":"undo"}'); s.take()
        s.send('{"id":"palette-1","cmd":"palette","action":"show"}', events=1, until=lambda m: m["event"] == "tool")
        section("`palette`", s.take(), "`action` is `show`, `hide` or `toggle`; subscribers of `tool` get the event, with `palette`.")
        s.send('{"id":"palette-2","cmd":"palette-regions","regions":[{"x":0,"y":0.93,"width":0.03,"height":0.05,"select":"color:#3465a4"},'
               '{"x":0.03,"y":0.93,"width":0.03,"height":0.05,"select":"width:+"}]}')
        section("`palette-regions`", s.take(), "What a canvas sends, on a connection it keeps open (the regions go when it closes): "
                "where its palette's buttons are in the tablet's coordinates, and what each selects.")
        s.send('{"id":"palette-3","cmd":"palette-regions","regions":[{"x":0.99,"y":0,"width":0.05,"height":0.05,"select":"width:+"}]}')
        section("`palette-regions` with a bad region", s.take(), "Named by its index; the regions held stay.")
        s.send('{"id":"palette-4","cmd":"palette","action":"hide"}', events=1, until=lambda m: m["event"] == "tool"); s.take()
        s.send('{"id":14,"cmd":"unsubscribe","topics":["precision","device"]}'); section("`unsubscribe`", s.take())
        s.send('{"id":15,"cmd":"subscribe","topics":["pen"]}', events=3, until=lambda m: m["event"] in ("pen", "proximity", "dropped"))
        section("The `pen` topic", s.take(), "Per-sample pen data, with the precision-adjusted position.")
        s.send('{"id":16,"cmd":"unsubscribe","topics":["pen"]}'); s.take()
        s.send('{"id":"button-1","cmd":"subscribe","topics":["button"]}', events=5, until=lambda m: m["event"] == "button")
        section("The `button` topic", s.take(), "Every press and release of a side or pad button; a press carries its gap to the "
                "same button's previous press and the interval it was judged against.")
        s.send('{"id":"button-2","cmd":"unsubscribe","topics":["button"]}'); s.take()
        s.send('{"id":17,"cmd":"devices"}'); section("`devices`", s.take(), "The daemon's probe of /dev/input (empty on a machine without input devices).")
        s.send('{"id":18,"cmd":"reload"}'); section("`reload`", s.take())
        s.send('{"id":"out-1","cmd":"subscribe","topics":["output"]}'); s.take()
        s.send('{"id":"out-2","cmd":"output","mode":"filter"}')
        s.send('{"id":"out-3","cmd":"output","mode":"observe"}', events=1, until=lambda m: m["event"] == "output")
        section("`output`", s.take(), "A replay has no node to grab, so filter is refused with the reason and the output stays; "
                "a switch that changes the mode or the requested mode answers with the status and sends `output` subscribers the event.")
        s.send('{"id":19,"cmd":"fly"}'); s.send('{"id":20,"cmd":"precision","action":"max"}'); s.send('{"id":21,"cmd":7}')
        s.send('{"id":22,"cmd":"tool","width":0}')
        s.send('{nope'); s.send('[1,2]')
        section("Errors", s.take(), "The connection stays usable after each of them.")


if __name__ == "__main__":
    main(sys.argv[1])
