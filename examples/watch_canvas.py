#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A stylusd client in plain Python: subscribe to the canvas, toggle it, print what happens."""
import json, os, socket, sys

path = os.environ.get("STYLUSD_SOCKET") or os.path.join(os.environ["XDG_RUNTIME_DIR"], "stylusd", "stylusd.sock")
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(path)
stream = sock.makefile("rwb", buffering=0)
print("connected:", json.loads(stream.readline())["daemon"])

def send(request):
    stream.write((json.dumps(request) + "\n").encode())

send({"id": 1, "cmd": "subscribe", "topics": ["canvas"]})
send({"id": 2, "cmd": "toggle"})
for line in stream:
    message = json.loads(line)
    if message.get("event") == "canvas":
        print("canvas is", message["state"], "- strokes:", message["stroke_count"], flush=True)
        if message["state"] in ("open", "minimized") and len(sys.argv) < 2:
            break
    elif "ok" in message and not message["ok"]:
        print("refused:", message["error"]["message"], flush=True)
