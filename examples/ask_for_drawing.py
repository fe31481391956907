#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Ask the user for a drawing: open the canvas, wait until they put it away, and save
what they drew as a PNG. Usage: ask_for_drawing.py OUT.png. Exit 0 with the picture,
1 when the user drew nothing or threw the drawing away, 2 when stylusd refused."""
import base64, json, os, socket, sys

out = sys.argv[1] if len(sys.argv) > 1 else "drawing.png"
path = os.environ.get("STYLUSD_SOCKET") or os.path.join(os.environ["XDG_RUNTIME_DIR"], "stylusd", "stylusd.sock")
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(path)
stream = sock.makefile("rwb", buffering=0)
stream.readline()  # the greeting
events = []


def request(cmd, **fields):
    """Send one command and return its answer; events that come first are kept for later."""
    stream.write((json.dumps({"id": 1, "cmd": cmd, **fields}) + "\n").encode())
    for line in stream:
        message = json.loads(line)
        if "event" in message:
            events.append(message)
        elif not message["ok"]:
            print(f"stylusd refused {cmd}: {message['error']['message']}", file=sys.stderr)
            sys.exit(2)
        else:
            return message["result"]
    sys.exit("stylusd went away")  # exit status 1, the reason on stderr


def next_event():
    if events:
        return events.pop(0)
    line = stream.readline()
    if not line:
        sys.exit("stylusd went away")
    return json.loads(line)


request("subscribe", topics=["canvas"])
request("open")
print("Draw, then press Escape (or double-press the pen's button) to hand the drawing over.", flush=True)
while True:
    event = next_event()
    if event.get("event") == "canvas" and event["state"] == "minimized":
        break
if event.get("result") == "cancelled":
    sys.exit(print("the drawing was thrown away") or 1)
if event.get("result") == "submitted":
    # Submitted on the canvas (a `submit` binding): stylusd wrote the file already.
    png = open(event["path"], "rb").read()
else:
    if not event["has_content"]:
        sys.exit(print("nothing was drawn") or 1)
    # Kept as it is: the client takes it, inline, and the canvas starts afresh next time.
    png = base64.b64decode(request("submit", inline=True)["png_base64"])
with open(out, "wb") as f:
    f.write(png)
print(f"saved the drawing to {out} ({len(png)} bytes)")
