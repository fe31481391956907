// SPDX-License-Identifier: MIT
// libxcb with its RandR, SHAPE, XFIXES and XInput 2 extensions, for stylus-canvas's X11 canvas.
#include <xcb/xcb.h>
#include <xcb/randr.h>
#include <xcb/shape.h>
#include <xcb/xinput.h>
#include <xcb/xfixes.h>

// The extensions' ids, which xcb_get_extension_data takes, as functions: Swift 6
// refuses a reference to a mutable C global (and xcb_extension_t is opaque here).
static inline xcb_extension_t *stylus_randr_id(void) { return &xcb_randr_id; }
static inline xcb_extension_t *stylus_shape_id(void) { return &xcb_shape_id; }
static inline xcb_extension_t *stylus_input_id(void) { return &xcb_input_id; }
static inline xcb_extension_t *stylus_xfixes_id(void) { return &xcb_xfixes_id; }
