# SPDX-License-Identifier: MIT
"""Reads the X11 CLIPBOARD as one target (image/png, TARGETS) the way a paste does:
`xclip -selection clipboard -o -t TARGET` where xclip is installed, else a
ConvertSelection through libX11 (ctypes) on a window of its own. Returns the
bytes, or None when nobody owns the clipboard or the owner refused the target."""
import ctypes
import ctypes.util
import shutil
import subprocess
import time


def read_clipboard(env, target="image/png", timeout=5.0):
    if shutil.which("xclip"):
        r = subprocess.run(["xclip", "-selection", "clipboard", "-o", "-t", target], env=env, capture_output=True, timeout=timeout)
        return r.stdout if r.returncode == 0 and r.stdout else None
    return _read_with_xlib(env["DISPLAY"], target, timeout)


class _SelectionEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("requestor", ctypes.c_ulong), ("selection", ctypes.c_ulong),
                ("target", ctypes.c_ulong), ("property", ctypes.c_ulong), ("time", ctypes.c_ulong)]


class _Event(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("selection", _SelectionEvent), ("pad", ctypes.c_long * 24)]


SELECTION_NOTIFY = 31
ANY_PROPERTY_TYPE = 0


def _read_with_xlib(display_name, target, timeout):
    x = ctypes.CDLL(ctypes.util.find_library("X11"))
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XInternAtom.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XCreateSimpleWindow.restype = ctypes.c_ulong
    x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 2 + [ctypes.c_uint] * 3 + [ctypes.c_ulong] * 2
    x.XConvertSelection.argtypes = [ctypes.c_void_p] + [ctypes.c_ulong] * 5
    x.XGetSelectionOwner.restype = ctypes.c_ulong
    x.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XPending.argtypes = [ctypes.c_void_p]
    x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Event)]
    x.XFlush.argtypes = [ctypes.c_void_p]
    x.XGetWindowProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long, ctypes.c_long, ctypes.c_int,
                                     ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_int),
                                     ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_void_p)]
    x.XFree.argtypes = [ctypes.c_void_p]
    x.XCloseDisplay.argtypes = [ctypes.c_void_p]
    d = x.XOpenDisplay(display_name.encode())
    if not d:
        raise RuntimeError(f"cannot open display {display_name}")
    try:
        clipboard = x.XInternAtom(d, b"CLIPBOARD", 0)
        wanted = x.XInternAtom(d, target.encode(), 0)
        prop = x.XInternAtom(d, b"STYLUS_TEST_PASTE", 0)
        if x.XGetSelectionOwner(d, clipboard) == 0:
            return None
        w = x.XCreateSimpleWindow(d, x.XDefaultRootWindow(d), 0, 0, 1, 1, 0, 0, 0)
        x.XConvertSelection(d, clipboard, wanted, prop, w, 0)
        x.XFlush(d)
        end = time.monotonic() + timeout
        event = _Event()
        while True:
            if x.XPending(d):
                x.XNextEvent(d, ctypes.byref(event))
                if event.type == SELECTION_NOTIFY:
                    break
            elif time.monotonic() > end:
                raise RuntimeError(f"the clipboard's owner did not answer {target} within {timeout} s")
            else:
                time.sleep(0.01)
        if event.selection.property == 0:
            return None
        kind, fmt = ctypes.c_ulong(), ctypes.c_int()
        count, after, data = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_void_p()
        x.XGetWindowProperty(d, w, prop, 0, 1 << 28, 1, ANY_PROPERTY_TYPE, ctypes.byref(kind), ctypes.byref(fmt),
                             ctypes.byref(count), ctypes.byref(after), ctypes.byref(data))
        if not data:
            return b""
        # Xlib hands 32-bit items as longs (8 bytes here).
        size = {8: 1, 16: ctypes.sizeof(ctypes.c_short), 32: ctypes.sizeof(ctypes.c_long)}[fmt.value] * count.value
        out = ctypes.string_at(data, size)
        x.XFree(data)
        if fmt.value == 32:
            longs = [int.from_bytes(out[i:i + 8], "little") for i in range(0, len(out), 8)]
            names = []
            x.XGetAtomName.restype = ctypes.c_void_p
            x.XGetAtomName.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
            for atom in longs:
                p = x.XGetAtomName(d, atom)
                names.append(ctypes.string_at(p).decode())
                x.XFree(p)
            return "\n".join(names).encode() + b"\n"
        return out
    finally:
        x.XCloseDisplay(d)
