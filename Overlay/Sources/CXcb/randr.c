// SPDX-License-Identifier: MIT
#include "extension.h"
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

static xcb_extension_t randr_id = { "RANDR", 0 };

stylus_xext stylus_randr(xcb_connection_t *c) { return stylus_extension_info(c, &randr_id); }

/// Sends a RandR request of `words` 32-bit words (the first carries the opcodes and
/// length, which xcb fills in) and waits for its reply when `reply` is set.
static void *randr_request(xcb_connection_t *c, uint8_t opcode, uint32_t *words, size_t count, int reply) {
    struct iovec parts[3];
    parts[2].iov_base = words;
    parts[2].iov_len = count * 4;
    xcb_protocol_request_t request = { 1, &randr_id, opcode, reply ? 0 : 1 };
    unsigned int sequence = xcb_send_request(c, reply ? XCB_REQUEST_CHECKED : 0, parts + 2, &request);
    if (!reply || sequence == 0) return NULL;
    xcb_generic_error_t *error = NULL;
    void *answer = xcb_wait_for_reply(c, sequence, &error);
    free(error);
    return answer;
}

int stylus_randr_version(xcb_connection_t *c) {
    if (!stylus_randr(c).present) return 0;
    uint32_t words[3] = { 0, 1, 5 };
    uint8_t *r = randr_request(c, 0, words, 3, 1);
    if (!r) return 0;
    uint32_t major, minor;
    memcpy(&major, r + 8, 4);
    memcpy(&minor, r + 12, 4);
    free(r);
    return (int)(major * 100 + minor);
}

void stylus_randr_select_input(xcb_connection_t *c, xcb_window_t window, uint16_t mask) {
    uint32_t words[3] = { 0, window, mask };
    randr_request(c, 4, words, 3, 0);
}

/// RRGetOutputInfo: the output's name; 0 when it is disconnected or unknown.
static int output_name(xcb_connection_t *c, uint32_t output, char *name, size_t size) {
    uint32_t words[3] = { 0, output, 0 };
    uint8_t *r = randr_request(c, 9, words, 3, 1);
    if (!r) return 0;
    uint32_t length;
    memcpy(&length, r + 4, 4);
    uint8_t connection = r[24];
    uint16_t crtcs, modes, clones, name_length;
    memcpy(&crtcs, r + 26, 2);
    memcpy(&modes, r + 28, 2);
    memcpy(&clones, r + 32, 2);
    memcpy(&name_length, r + 34, 2);
    size_t offset = 36 + 4 * ((size_t)crtcs + modes + clones);
    int ok = connection != 1 && offset + name_length <= 32 + 4 * (size_t)length;
    if (ok) {
        size_t n = name_length < size - 1 ? name_length : size - 1;
        memcpy(name, r + offset, n);
        name[n] = 0;
    }
    free(r);
    return ok;
}

/// The maker's PNP ID from the output's EDID property, as GDK reads it.
static void output_maker(xcb_connection_t *c, uint32_t output, xcb_atom_t edid, char maker[4]) {
    maker[0] = 0;
    if (edid == XCB_NONE) return;
    uint32_t words[7] = { 0, output, edid, XCB_GET_PROPERTY_TYPE_ANY, 0, 32, 0 };
    uint8_t *r = randr_request(c, 15, words, 7, 1);
    if (!r) return;
    uint32_t type, items;
    memcpy(&type, r + 8, 4);
    memcpy(&items, r + 16, 4);
    if (type == XCB_ATOM_INTEGER && r[1] == 8 && items >= 10) {
        uint16_t id = (uint16_t)(r[32 + 8] << 8 | r[32 + 9]);
        maker[0] = (char)('A' - 1 + ((id >> 10) & 0x1f));
        maker[1] = (char)('A' - 1 + ((id >> 5) & 0x1f));
        maker[2] = (char)('A' - 1 + (id & 0x1f));
        maker[3] = 0;
    }
    free(r);
}

int stylus_randr_monitors(xcb_connection_t *c, xcb_window_t root, stylus_monitor *out, int max) {
    if (stylus_randr_version(c) < 105) return -1;
    xcb_intern_atom_reply_t *atom = xcb_intern_atom_reply(c, xcb_intern_atom(c, 1, 4, "EDID"), NULL);
    xcb_atom_t edid = atom ? atom->atom : XCB_NONE;
    free(atom);
    uint32_t words[3] = { 0, root, 1 };   // get_active
    uint8_t *r = randr_request(c, 42, words, 3, 1);
    if (!r) return -1;
    uint32_t length, count;
    memcpy(&length, r + 4, 4);
    memcpy(&count, r + 12, 4);
    size_t end = 32 + 4 * (size_t)length, at = 32;
    int n = 0;
    for (uint32_t i = 0; i < count && at + 24 <= end && n < max; i++) {
        const uint8_t *m = r + at;
        uint16_t outputs;
        memcpy(&outputs, m + 6, 2);
        at += 24 + 4 * (size_t)outputs;
        if (at > end) break;
        stylus_monitor *o = &out[n];
        memset(o, 0, sizeof *o);
        o->primary = m[4];
        memcpy(&o->x, m + 8, 2);
        memcpy(&o->y, m + 10, 2);
        memcpy(&o->width, m + 12, 2);
        memcpy(&o->height, m + 14, 2);
        memcpy(&o->width_mm, m + 16, 4);
        memcpy(&o->height_mm, m + 20, 4);
        if (outputs > 0) {
            uint32_t output;
            memcpy(&output, m + 24, 4);
            // GDK leaves out a monitor whose first output is disconnected.
            if (!output_name(c, output, o->connector, sizeof o->connector)) continue;
            output_maker(c, output, edid, o->manufacturer);
        }
        n++;
    }
    free(r);
    return n;
}
