// SPDX-License-Identifier: MIT
#include "cxim.h"
#include <stdlib.h>

// Xlib's XIMPreeditCallbacks | XIMStatusNothing: the canvas shows the preedit itself, at its caret.
static const uint32_t on_the_spot = 0x0002 | 0x0400;

bool stylus_xim_create_ic(xcb_xim_t *im, xcb_window_t window, int16_t x, int16_t y,
                          xcb_xim_create_ic_callback callback, void *user_data) {
    uint32_t style = on_the_spot;
    xcb_point_t spot = {x, y};
    xcb_xim_nested_list preedit = xcb_xim_create_nested_list(im, XCB_XIM_XNSpotLocation, &spot, NULL);
    bool sent = xcb_xim_create_ic(im, callback, user_data, XCB_XIM_XNInputStyle, &style, XCB_XIM_XNClientWindow, &window,
                                  XCB_XIM_XNFocusWindow, &window, XCB_XIM_XNPreeditAttributes, &preedit, NULL);
    free(preedit.data);
    return sent;
}

bool stylus_xim_set_spot(xcb_xim_t *im, xcb_xic_t ic, int16_t x, int16_t y,
                         xcb_xim_set_ic_values_callback callback, void *user_data) {
    xcb_point_t spot = {x, y};
    xcb_xim_nested_list preedit = xcb_xim_create_nested_list(im, XCB_XIM_XNSpotLocation, &spot, NULL);
    bool sent = xcb_xim_set_ic_values(im, ic, callback, user_data, XCB_XIM_XNPreeditAttributes, &preedit, NULL);
    free(preedit.data);
    return sent;
}
