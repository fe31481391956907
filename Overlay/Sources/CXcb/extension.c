// SPDX-License-Identifier: MIT
#include "extension.h"

stylus_xext stylus_extension_info(xcb_connection_t *c, xcb_extension_t *id) {
    const xcb_query_extension_reply_t *r = xcb_get_extension_data(c, id);
    stylus_xext e = { 0, 0, 0 };
    if (r && r->present) { e.present = 1; e.major_opcode = r->major_opcode; e.first_event = r->first_event; }
    return e;
}
