// SPDX-License-Identifier: MIT
#include "extension.h"
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

static xcb_extension_t shape_id = { "SHAPE", 0 };

stylus_xext stylus_shape(xcb_connection_t *c) { return stylus_extension_info(c, &shape_id); }

void stylus_shape_rectangles(xcb_connection_t *c, uint8_t op, uint8_t kind, xcb_window_t window,
                             const xcb_rectangle_t *rects, uint32_t count) {
    // The request's own 16 bytes, then 8 a rectangle, under the largest request (4-byte units).
    uint32_t most = xcb_get_maximum_request_length(c);
    uint32_t per = most > 1024 ? (most - 4) / 2 : 500;
    if (per > 65536) per = 65536;
    uint32_t done = 0;
    do {
        uint32_t n = count - done < per ? count - done : per;
        uint8_t head[16] = { 0 };
        head[4] = done == 0 ? op : STYLUS_SHAPE_UNION;
        head[5] = kind;
        head[6] = 0;   // unsorted
        memcpy(head + 8, &window, 4);
        struct iovec parts[4];
        parts[2].iov_base = head;
        parts[2].iov_len = sizeof head;
        parts[3].iov_base = (void *)(rects + done);
        parts[3].iov_len = (size_t)n * sizeof *rects;
        xcb_protocol_request_t request = { 2, &shape_id, 1, 1 };
        xcb_send_request(c, 0, parts + 2, &request);
        done += n;
    } while (done < count);
}

void stylus_shape_reset(xcb_connection_t *c, uint8_t kind, xcb_window_t window) {
    uint8_t words[20] = { 0 };
    words[4] = STYLUS_SHAPE_SET;
    words[5] = kind;
    memcpy(words + 8, &window, 4);   // offsets 0, source pixmap None
    struct iovec parts[3];
    parts[2].iov_base = words;
    parts[2].iov_len = sizeof words;
    xcb_protocol_request_t request = { 1, &shape_id, 2, 1 };
    xcb_send_request(c, 0, parts + 2, &request);
}

uint32_t stylus_alpha_rectangles(const uint8_t *data, int stride, int x0, int y0, int x1, int y1,
                                 xcb_rectangle_t **out) {
    size_t capacity = 256, count = 0;
    xcb_rectangle_t *rects = malloc(capacity * sizeof *rects);
    // The runs of the row above, as indices into rects, so that a run that repeats grows downwards.
    size_t above_start = 0, above_end = 0;
    for (int y = y0; y < y1 && rects; y++) {
        const uint32_t *row = (const uint32_t *)(data + (size_t)y * stride);
        size_t row_start = count, scan = above_start;
        int x = x0;
        while (x < x1) {
            while (x < x1 && (row[x] >> 24) == 0) x++;
            if (x == x1) break;
            int start = x;
            while (x < x1 && (row[x] >> 24) != 0) x++;
            while (scan < above_end && rects[scan].x < start) scan++;
            if (scan < above_end && rects[scan].x == start && rects[scan].width == x - start
                && rects[scan].y + rects[scan].height == y) {
                rects[scan].height++;
                // Kept in this row's list too: move it to the end, so the next row can grow it.
                xcb_rectangle_t grown = rects[scan];
                rects[scan].width = 0;
                rects[scan].height = 0;
                rects[scan].x = INT16_MIN;
                if (count == capacity) {
                    capacity *= 2;
                    xcb_rectangle_t *more = realloc(rects, capacity * sizeof *rects);
                    if (!more) { free(rects); rects = NULL; break; }
                    rects = more;
                }
                rects[count++] = grown;
                scan++;
                continue;
            }
            if (count == capacity) {
                capacity *= 2;
                xcb_rectangle_t *more = realloc(rects, capacity * sizeof *rects);
                if (!more) { free(rects); rects = NULL; break; }
                rects = more;
            }
            rects[count++] = (xcb_rectangle_t){ (int16_t)start, (int16_t)y, (uint16_t)(x - start), 1 };
        }
        above_start = row_start;
        above_end = count;
    }
    if (!rects) { *out = NULL; return 0; }
    // Drop the husks of rectangles that moved down.
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) if (rects[i].width > 0) rects[kept++] = rects[i];
    *out = rects;
    return (uint32_t)kept;
}
