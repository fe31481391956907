// SPDX-License-Identifier: MIT
#include "CXcb.h"
#include <stdlib.h>
#include <string.h>

void stylus_put_argb(xcb_connection_t *c, xcb_drawable_t drawable, xcb_gcontext_t gc,
                     const uint8_t *data, int stride, int x, int y, int width, int height) {
    if (width <= 0 || height <= 0) return;
    size_t row = (size_t)width * 4;
    // PutImage's own 24 bytes, then the pixels; kept well under the largest request.
    size_t most = (size_t)xcb_get_maximum_request_length(c) * 4;
    if (most > (8u << 20)) most = 8u << 20;
    int rows = (int)((most - 64) / row);
    if (rows < 1) rows = 1;
    int contiguous = row == (size_t)stride;
    uint8_t *band = contiguous ? NULL : malloc(row * (size_t)(rows < height ? rows : height));
    if (!contiguous && !band) return;
    for (int top = 0; top < height; top += rows) {
        int n = height - top < rows ? height - top : rows;
        const uint8_t *first = data + (size_t)(y + top) * stride + (size_t)x * 4;
        const uint8_t *pixels = first;
        if (!contiguous) {
            for (int i = 0; i < n; i++) memcpy(band + (size_t)i * row, first + (size_t)i * stride, row);
            pixels = band;
        }
        xcb_put_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, drawable, gc, (uint16_t)width, (uint16_t)n,
                      (int16_t)x, (int16_t)(y + top), 0, 32, (uint32_t)(row * (size_t)n), pixels);
    }
    free(band);
}
