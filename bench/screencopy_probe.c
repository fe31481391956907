// SPDX-License-Identifier: MIT
// Reads pixels back from a wlroots compositor (wlr-screencopy) for the
// layer-shell ink benchmark: for each line "LOOK N X1 Y1 ... XN YN" on standard
// input it captures the smallest rectangle of the first output holding those
// points, and answers "SEEN T BITS": T the CLOCK_MONOTONIC microseconds at which
// the compositor said the copy was ready, BITS one 0 or 1 per point, 1 where the
// pixel is the canvas's pen ink (opaque red). The compositor copies at its next
// frame, so a look costs up to one refresh: what the user could see.
// Built by bench/layer_shell_bench.py (cc, against the glue wayland-scanner
// writes from the protocol's XML).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include "wlr-screencopy-unstable-v1-client-protocol.h"

static struct wl_shm *shm;
static struct wl_output *output;
static struct zwlr_screencopy_manager_v1 *manager;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data; (void)version;
    if (strcmp(interface, wl_shm_interface.name) == 0) shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, wl_output_interface.name) == 0 && !output) output = wl_registry_bind(registry, name, &wl_output_interface, 1);
    else if (strcmp(interface, zwlr_screencopy_manager_v1_interface.name) == 0)
        manager = wl_registry_bind(registry, name, &zwlr_screencopy_manager_v1_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }

static const struct wl_registry_listener registry_listener = { global, global_remove };

struct capture {
    uint32_t format, width, height, stride;
    int has_buffer, ready, failed, y_invert;
};

static void on_buffer(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t format, uint32_t width, uint32_t height, uint32_t stride) {
    (void)frame;
    struct capture *c = data;
    c->format = format; c->width = width; c->height = height; c->stride = stride; c->has_buffer = 1;
}

static void on_flags(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t flags) {
    (void)frame;
    ((struct capture *)data)->y_invert = flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT;
}

static void on_ready(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t hi, uint32_t lo, uint32_t nsec) {
    (void)frame; (void)hi; (void)lo; (void)nsec;
    ((struct capture *)data)->ready = 1;
}

static void on_failed(void *data, struct zwlr_screencopy_frame_v1 *frame) {
    (void)frame;
    ((struct capture *)data)->failed = 1;
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = { on_buffer, on_flags, on_ready, on_failed };

int main(void) {
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "screencopy_probe: no Wayland display\n");
        return 69;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!shm || !output || !manager) {
        fprintf(stderr, "screencopy_probe: the compositor lacks wl_shm, an output or zwlr_screencopy_manager_v1\n");
        return 69;
    }
    static char line[1 << 20];
    static int xs[1 << 16], ys[1 << 16];
    while (fgets(line, sizeof line, stdin)) {
        char *p = line;
        int n = 0, used = 0;
        if (sscanf(p, "LOOK %d%n", &n, &used) != 1 || n <= 0 || n > (1 << 16)) {
            fprintf(stderr, "screencopy_probe: not a LOOK line\n");
            return 64;
        }
        p += used;
        int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
        for (int i = 0; i < n; i++) {
            if (sscanf(p, "%d %d%n", &xs[i], &ys[i], &used) != 2) return 64;
            p += used;
            if (xs[i] < x0) x0 = xs[i];
            if (ys[i] < y0) y0 = ys[i];
            if (xs[i] > x1) x1 = xs[i];
            if (ys[i] > y1) y1 = ys[i];
        }
        struct capture c = {0};
        struct zwlr_screencopy_frame_v1 *frame =
            zwlr_screencopy_manager_v1_capture_output_region(manager, 0, output, x0, y0, x1 - x0 + 1, y1 - y0 + 1);
        zwlr_screencopy_frame_v1_add_listener(frame, &frame_listener, &c);
        while (!c.has_buffer && !c.failed && wl_display_dispatch(display) >= 0) {}
        if (c.failed) {
            fprintf(stderr, "screencopy_probe: the compositor refused the capture\n");
            return 70;
        }
        size_t size = (size_t)c.stride * c.height;
        int fd = memfd_create("screencopy-probe", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)size) != 0) return 71;
        uint8_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (pixels == MAP_FAILED) return 71;
        struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
        struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, (int32_t)c.width, (int32_t)c.height, (int32_t)c.stride, c.format);
        wl_shm_pool_destroy(pool);
        close(fd);
        zwlr_screencopy_frame_v1_copy(frame, buffer);
        while (!c.ready && !c.failed && wl_display_dispatch(display) >= 0) {}
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        printf("SEEN %lld ", (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000);
        for (int i = 0; i < n; i++) {
            int row = ys[i] - y0, col = xs[i] - x0;
            if (c.y_invert) row = (int)c.height - 1 - row;
            const uint8_t *px = pixels + (size_t)row * c.stride + (size_t)col * 4;   // XRGB/ARGB8888: B, G, R in memory
            int ink = !c.failed && px[2] > 170 && px[1] < 70 && px[0] < 70;
            putchar(ink ? '1' : '0');
        }
        putchar('\n');
        fflush(stdout);
        wl_buffer_destroy(buffer);
        munmap(pixels, size);
        zwlr_screencopy_frame_v1_destroy(frame);
    }
    wl_display_disconnect(display);
    return 0;
}
