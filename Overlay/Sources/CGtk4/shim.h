// SPDX-License-Identifier: MIT
// GTK 4 (with GDK, GSK, cairo, GLib) and GLib's Unix helpers, for stylus-canvas.
#include <gtk/gtk.h>
#include <glib-unix.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
