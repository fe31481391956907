// SPDX-License-Identifier: MIT
// GLib (the main loop, its Unix helpers), GIO (GNOME Shell's D-Bus) and cairo
// (InkLayers), for stylus-canvas; no toolkit: every canvas is a native window.
#include <glib.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <cairo.h>
// zlib for the PNG export's own encoder (--render-png).
#include <zlib.h>
