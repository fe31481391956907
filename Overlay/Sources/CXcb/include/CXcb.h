// SPDX-License-Identifier: MIT
// libxcb for stylus-canvas's X11 canvas, and the few RandR and SHAPE
// requests it needs, encoded here over xcbext.h's xcb_send_request: that
// keeps the build on libxcb1-dev alone (libxcb-randr0-dev and
// libxcb-shape0-dev are not needed). Image uploads and the ink's shape
// are cut to the server's largest request here too.
#ifndef STYLUS_CXCB_H
#define STYLUS_CXCB_H
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/xproto.h>

/// An extension as the server announced it; present 0 when it has none.
typedef struct {
    uint8_t present;
    uint8_t major_opcode;
    uint8_t first_event;
} stylus_xext;

stylus_xext stylus_randr(xcb_connection_t *c);
stylus_xext stylus_shape(xcb_connection_t *c);

/// RandR's version the server speaks after it learnt ours (1.5), as major * 100 + minor; 0 without RandR.
int stylus_randr_version(xcb_connection_t *c);
/// RRSelectInput: screen (1), CRTC (2) and output (4) change notifications on `window`.
void stylus_randr_select_input(xcb_connection_t *c, xcb_window_t window, uint16_t mask);

/// A monitor as RandR 1.5 describes it, with its first output's name and EDID's maker.
typedef struct {
    int16_t x, y;
    uint16_t width, height;
    uint32_t width_mm, height_mm;
    uint8_t primary;
    /// The output's name (`DP-1`); empty when unknown.
    char connector[64];
    /// EDID's three-letter PNP ID (`DEL`); empty when unknown.
    char manufacturer[4];
} stylus_monitor;

/// The active monitors in the server's order (at most `max`); -1 when RandR 1.5 cannot tell.
int stylus_randr_monitors(xcb_connection_t *c, xcb_window_t root, stylus_monitor *out, int max);

enum { STYLUS_SHAPE_SET = 0, STYLUS_SHAPE_UNION = 1, STYLUS_SHAPE_SUBTRACT = 3 };
enum { STYLUS_SHAPE_BOUNDING = 0, STYLUS_SHAPE_INPUT = 2 };

/// ShapeRectangles, in as many requests as the server's request size needs (the first with `op`, the rest union).
void stylus_shape_rectangles(xcb_connection_t *c, uint8_t op, uint8_t kind, xcb_window_t window,
                             const xcb_rectangle_t *rects, uint32_t count);
/// ShapeMask with no pixmap: the window's own rectangle again.
void stylus_shape_reset(xcb_connection_t *c, uint8_t kind, xcb_window_t window);

/// The non-transparent pixels of an ARGB32 image's rectangle [x0, x1) × [y0, y1) as
/// rectangles (runs of a row, merged with the same run in the rows above); free() them.
uint32_t stylus_alpha_rectangles(const uint8_t *data, int stride, int x0, int y0, int x1, int y1,
                                 xcb_rectangle_t **out);

/// Puts the rectangle of an ARGB32 image (`stride` bytes a row) at the same place in
/// `drawable` (depth 32, ZPixmap), in bands that fit the server's request size.
void stylus_put_argb(xcb_connection_t *c, xcb_drawable_t drawable, xcb_gcontext_t gc,
                     const uint8_t *data, int stride, int x, int y, int width, int height);
#endif
