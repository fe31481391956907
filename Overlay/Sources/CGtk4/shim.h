// SPDX-License-Identifier: MIT
// GTK 4 (with GDK, GSK, cairo, GLib) and GLib's Unix helpers, for stylus-canvas.
#include <gtk/gtk.h>
#include <glib-unix.h>
// zlib for the PNG export's own encoder (--render-png); GTK loads it already, through libpng.
#include <zlib.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
