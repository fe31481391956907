// SPDX-License-Identifier: MIT
#ifndef STYLUS_CXCB_EXTENSION_H
#define STYLUS_CXCB_EXTENSION_H
#include "CXcb.h"
#include <xcb/xcbext.h>

/// What the server said of extension `id` when xcb asked (once per connection).
stylus_xext stylus_extension_info(xcb_connection_t *c, xcb_extension_t *id);
#endif
