#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A plain GTK 4 window for the layer-shell tests: solid blue, app id
stylus-test-app (the test's sway config makes it fullscreen; `--fullscreen`
asks for it itself), printing
"pressed X Y" for each click it receives and "mapped" once shown."""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gtk  # noqa: E402

css = Gtk.CssProvider()
css.load_from_data(b"window { background: #2040c0; }")


def activate(app):
    Gtk.StyleContext.add_provider_for_display(Gtk.Widget.get_display(Gtk.Label()), css, 800)
    win = Gtk.ApplicationWindow(application=app, title="stylus-test-app")
    click = Gtk.GestureClick()
    click.connect("pressed", lambda _g, _n, x, y: print(f"pressed {x:.0f} {y:.0f}", flush=True))
    win.add_controller(click)
    win.connect("map", lambda _w: print("mapped", flush=True))
    if "--fullscreen" in sys.argv:   # where no compositor rule makes it fullscreen (GNOME)
        win.fullscreen()
    win.present()


app = Gtk.Application(application_id="org.stylusd.TestApp")
app.connect("activate", activate)
sys.exit(app.run([]))
