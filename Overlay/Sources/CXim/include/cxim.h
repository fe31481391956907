// SPDX-License-Identifier: MIT
// xcb-imdkit's XIM client for stylus-canvas's X11 canvas: its header, and wrappers
// for the calls Swift cannot make (xcb-imdkit's IC attributes are C variadics).
#ifndef STYLUS_CXIM_H
#define STYLUS_CXIM_H
#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb-imdkit/imclient.h>
#include <xcb-imdkit/encoding.h>

/// An on-the-spot input context (the client draws the preedit, the IM no status) for
/// `window`, its spot (where the IM's candidate popup goes) at (x, y) in the window.
bool stylus_xim_create_ic(xcb_xim_t *im, xcb_window_t window, int16_t x, int16_t y,
                          xcb_xim_create_ic_callback callback, void *user_data);

/// Moves the context's spot to (x, y), the caret's baseline in its window; `callback` when the server answered.
bool stylus_xim_set_spot(xcb_xim_t *im, xcb_xic_t ic, int16_t x, int16_t y,
                         xcb_xim_set_ic_values_callback callback, void *user_data);
#endif
