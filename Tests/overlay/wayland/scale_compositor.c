// SPDX-License-Identifier: MIT
// A Wayland compositor for one test: it offers what stylus-canvas's
// layer-shell canvas binds (wl_compositor, wl_shm, one wl_output with
// xdg_output, wlr-layer-shell) and, when asked, wp_viewporter and
// wp_fractional_scale_v1, which no compositor on Debian 12 has (sway 1.7 and
// weston 10 predate it). It shows nothing; it keeps the last buffer each
// surface committed, prints what each commit asked for, and on a command
// writes that buffer composed over a plain desktop colour as a PPM, so the
// test checks the canvas's pixels as a scaled output would show them.
//
//   scale_compositor SOCKET WIDTH HEIGHT SCALE120 OUTPUT_SCALE [late]
//     SCALE120 0: no fractional scale or viewporter; else the preferred scale in 120ths.
//     late: the preferred scale is told to a surface only at its first commit with a buffer,
//     as sway 1.8+ does (a surface enters its output once mapped), not when it is asked for.
//   stdin:  "dump PATH" -> "dumped WxH"; "scale N" -> a new preferred scale to every surface.
//   stdout: "ready", then "commit BWxBH scale S dest DWxDH" for each commit with a buffer.
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server.h>
#include "wlr-layer-shell-unstable-v1-server-protocol.h"
#include "xdg-output-unstable-v1-server-protocol.h"
#include "viewporter-server-protocol.h"
#include "fractional-scale-v1-server-protocol.h"

static const uint8_t desktop[3] = {0x20, 0x80, 0x20};
static int width, height, scale120, output_scale, late;
static struct wl_display *display;
static struct wl_list fractionals;   // wl_resource links of every wp_fractional_scale_v1

struct surface {
    struct wl_resource *resource;
    struct wl_resource *pending_buffer;
    int attached;
    int32_t pending_scale, scale;
    int32_t pending_dest_w, pending_dest_h, dest_w, dest_h;
    struct wl_list pending_frames;   // wl_resource links of wl_callbacks
    struct wl_resource *layer_surface;
    int configure_sent;
    int scale_told;                  // late: the preferred scale went to its fractional scale
    uint8_t *pixels;                 // the last committed buffer, ARGB8888 premultiplied
    int w, h;
};
static struct surface *last_committed;

static void destroy_resource(struct wl_client *client, struct wl_resource *resource) { wl_resource_destroy(resource); }
static void unlink_resource(struct wl_resource *resource) { wl_list_remove(wl_resource_get_link(resource)); }

// -- wl_region: the canvas sets an input region; nothing here needs its shape.
static void region_add(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {}
static const struct wl_region_interface region_impl = {destroy_resource, region_add, region_add};

// -- wl_surface
static void surface_attach(struct wl_client *c, struct wl_resource *r, struct wl_resource *buffer, int32_t x, int32_t y) {
    struct surface *s = wl_resource_get_user_data(r);
    s->pending_buffer = buffer;
    s->attached = 1;
}
static void surface_damage(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {}
static void surface_frame(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct surface *s = wl_resource_get_user_data(r);
    struct wl_resource *cb = wl_resource_create(c, &wl_callback_interface, 1, id);
    wl_resource_set_implementation(cb, NULL, NULL, unlink_resource);
    wl_list_insert(s->pending_frames.prev, wl_resource_get_link(cb));
}
static void surface_region(struct wl_client *c, struct wl_resource *r, struct wl_resource *region) {}
static void surface_transform(struct wl_client *c, struct wl_resource *r, int32_t t) {}
static void surface_scale(struct wl_client *c, struct wl_resource *r, int32_t scale) {
    struct surface *s = wl_resource_get_user_data(r);
    s->pending_scale = scale;
}
static void surface_commit(struct wl_client *c, struct wl_resource *r) {
    struct surface *s = wl_resource_get_user_data(r);
    s->scale = s->pending_scale;
    s->dest_w = s->pending_dest_w;
    s->dest_h = s->pending_dest_h;
    if (s->layer_surface && !s->configure_sent) {
        s->configure_sent = 1;
        zwlr_layer_surface_v1_send_configure(s->layer_surface, wl_display_next_serial(display), width, height);
    }
    if (s->attached && s->pending_buffer) {
        struct wl_shm_buffer *shm = wl_shm_buffer_get(s->pending_buffer);
        if (shm) {
            int w = wl_shm_buffer_get_width(shm), h = wl_shm_buffer_get_height(shm), stride = wl_shm_buffer_get_stride(shm);
            free(s->pixels);
            s->pixels = malloc((size_t)w * h * 4);
            wl_shm_buffer_begin_access(shm);
            const uint8_t *data = wl_shm_buffer_get_data(shm);
            for (int y = 0; y < h; y++) memcpy(s->pixels + (size_t)y * w * 4, data + (size_t)y * stride, (size_t)w * 4);
            wl_shm_buffer_end_access(shm);
            s->w = w;
            s->h = h;
            last_committed = s;
            printf("commit %dx%d scale %d dest %dx%d\n", w, h, s->scale, s->dest_w, s->dest_h);
            fflush(stdout);
        }
        if (late && !s->scale_told) {
            s->scale_told = 1;
            struct wl_resource *f;
            wl_resource_for_each(f, &fractionals) {
                if (wl_resource_get_user_data(f) == s) wp_fractional_scale_v1_send_preferred_scale(f, scale120);
            }
        }
        wl_buffer_send_release(s->pending_buffer);
    }
    s->attached = 0;
    s->pending_buffer = NULL;
    struct wl_resource *cb, *next;
    wl_resource_for_each_safe(cb, next, &s->pending_frames) {
        wl_callback_send_done(cb, 0);
        wl_resource_destroy(cb);
    }
}
static void surface_offset(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y) {}
static const struct wl_surface_interface surface_impl = {
    destroy_resource, surface_attach, surface_damage, surface_frame, surface_region, surface_region,
    surface_commit, surface_transform, surface_scale, surface_damage, surface_offset,
};
static void surface_gone(struct wl_resource *r) {
    struct surface *s = wl_resource_get_user_data(r);
    struct wl_resource *cb, *next;
    wl_resource_for_each_safe(cb, next, &s->pending_frames) wl_resource_destroy(cb);
    if (last_committed == s) last_committed = NULL;
    free(s->pixels);
    free(s);
}

// -- wl_compositor
static void create_surface(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct surface *s = calloc(1, sizeof *s);
    s->pending_scale = s->scale = 1;
    wl_list_init(&s->pending_frames);
    s->resource = wl_resource_create(c, &wl_surface_interface, wl_resource_get_version(r), id);
    wl_resource_set_implementation(s->resource, &surface_impl, s, surface_gone);
}
static void create_region(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct wl_resource *region = wl_resource_create(c, &wl_region_interface, 1, id);
    wl_resource_set_implementation(region, &region_impl, NULL, NULL);
}
static const struct wl_compositor_interface compositor_impl = {create_surface, create_region};
static void bind_compositor(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &wl_compositor_interface, version, id);
    wl_resource_set_implementation(r, &compositor_impl, NULL, NULL);
}

// -- wl_output (one, at 0,0), described in logical pixels by xdg_output
static const struct wl_output_interface output_impl = {destroy_resource};
static int mode_side(int logical) {
    return scale120 > 0 ? (logical * scale120 + 60) / 120 : logical * output_scale;
}
static void bind_output(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &wl_output_interface, version, id);
    wl_resource_set_implementation(r, &output_impl, NULL, NULL);
    wl_output_send_geometry(r, 0, 0, 300, 190, WL_OUTPUT_SUBPIXEL_UNKNOWN, "Test", "Scaled", WL_OUTPUT_TRANSFORM_NORMAL);
    wl_output_send_mode(r, WL_OUTPUT_MODE_CURRENT, mode_side(width), mode_side(height), 60000);
    if (version >= 2) wl_output_send_scale(r, scale120 > 0 ? (scale120 + 119) / 120 : output_scale);
    if (version >= 4) wl_output_send_name(r, "TEST-1");
    if (version >= 2) wl_output_send_done(r);
}

static const struct zxdg_output_v1_interface xdg_output_impl = {destroy_resource};
static void get_xdg_output(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *output) {
    struct wl_resource *x = wl_resource_create(c, &zxdg_output_v1_interface, wl_resource_get_version(r), id);
    wl_resource_set_implementation(x, &xdg_output_impl, NULL, NULL);
    zxdg_output_v1_send_logical_position(x, 0, 0);
    zxdg_output_v1_send_logical_size(x, width, height);
    if (wl_resource_get_version(x) >= 2) zxdg_output_v1_send_name(x, "TEST-1");
    if (wl_resource_get_version(x) < 3) zxdg_output_v1_send_done(x);
    if (wl_resource_get_version(output) >= 2) wl_output_send_done(output);
}
static const struct zxdg_output_manager_v1_interface xdg_output_manager_impl = {destroy_resource, get_xdg_output};
static void bind_xdg_output_manager(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &zxdg_output_manager_v1_interface, version, id);
    wl_resource_set_implementation(r, &xdg_output_manager_impl, NULL, NULL);
}

// -- wlr-layer-shell
static void ls_size(struct wl_client *c, struct wl_resource *r, uint32_t w, uint32_t h) {}
static void ls_anchor(struct wl_client *c, struct wl_resource *r, uint32_t a) {}
static void ls_zone(struct wl_client *c, struct wl_resource *r, int32_t z) {}
static void ls_margin(struct wl_client *c, struct wl_resource *r, int32_t t, int32_t ri, int32_t b, int32_t l) {}
static void ls_popup(struct wl_client *c, struct wl_resource *r, struct wl_resource *p) {}
static void ls_ack(struct wl_client *c, struct wl_resource *r, uint32_t serial) {}
static const struct zwlr_layer_surface_v1_interface layer_surface_impl = {
    ls_size, ls_anchor, ls_zone, ls_margin, ls_anchor, ls_popup, ls_ack, destroy_resource, ls_anchor,
};
static void layer_surface_gone(struct wl_resource *r) {
    struct surface *s = wl_resource_get_user_data(r);
    if (s) s->layer_surface = NULL;
}
static void get_layer_surface(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *surface,
                              struct wl_resource *output, uint32_t layer, const char *namespace) {
    struct surface *s = wl_resource_get_user_data(surface);
    s->layer_surface = wl_resource_create(c, &zwlr_layer_surface_v1_interface, wl_resource_get_version(r), id);
    wl_resource_set_implementation(s->layer_surface, &layer_surface_impl, s, layer_surface_gone);
}
static const struct zwlr_layer_shell_v1_interface layer_shell_impl = {get_layer_surface, destroy_resource};
static void bind_layer_shell(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &zwlr_layer_shell_v1_interface, version, id);
    wl_resource_set_implementation(r, &layer_shell_impl, NULL, NULL);
}

// -- wp_viewporter
static void viewport_source(struct wl_client *c, struct wl_resource *r, wl_fixed_t x, wl_fixed_t y, wl_fixed_t w, wl_fixed_t h) {}
static void viewport_destination(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h) {
    struct surface *s = wl_resource_get_user_data(r);
    s->pending_dest_w = w;
    s->pending_dest_h = h;
}
static const struct wp_viewport_interface viewport_impl = {destroy_resource, viewport_source, viewport_destination};
static void get_viewport(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *surface) {
    struct wl_resource *v = wl_resource_create(c, &wp_viewport_interface, 1, id);
    wl_resource_set_implementation(v, &viewport_impl, wl_resource_get_user_data(surface), NULL);
}
static const struct wp_viewporter_interface viewporter_impl = {destroy_resource, get_viewport};
static void bind_viewporter(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &wp_viewporter_interface, 1, id);
    wl_resource_set_implementation(r, &viewporter_impl, NULL, NULL);
}

// -- wp_fractional_scale_v1
static const struct wp_fractional_scale_v1_interface fractional_impl = {destroy_resource};
static void get_fractional_scale(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *surface) {
    struct wl_resource *f = wl_resource_create(c, &wp_fractional_scale_v1_interface, 1, id);
    // The surface is only compared with, never read through: it may go first.
    wl_resource_set_implementation(f, &fractional_impl, wl_resource_get_user_data(surface), unlink_resource);
    wl_list_insert(&fractionals, wl_resource_get_link(f));
    if (!late) wp_fractional_scale_v1_send_preferred_scale(f, scale120);
}
static const struct wp_fractional_scale_manager_v1_interface fractional_manager_impl = {destroy_resource, get_fractional_scale};
static void bind_fractional_manager(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &wp_fractional_scale_manager_v1_interface, 1, id);
    wl_resource_set_implementation(r, &fractional_manager_impl, NULL, NULL);
}

// -- the test's commands
static void dump(const char *path) {
    struct surface *s = last_committed;
    FILE *f = s ? fopen(path, "wb") : NULL;
    if (!f) {
        printf("no frame\n");
        return;
    }
    fprintf(f, "P6\n%d %d\n255\n", s->w, s->h);
    for (int i = 0; i < s->w * s->h; i++) {
        const uint8_t *p = s->pixels + (size_t)i * 4;   // B G R A, premultiplied
        uint8_t out[3];
        for (int k = 0; k < 3; k++) out[k] = (uint8_t)(p[2 - k] + desktop[k] * (255 - p[3]) / 255);
        fwrite(out, 1, 3, f);
    }
    fclose(f);
    printf("dumped %dx%d\n", s->w, s->h);
}
static int command(int fd, uint32_t mask, void *data) {
    static char line[4096];
    static size_t used;
    ssize_t n = read(fd, line + used, sizeof line - 1 - used);
    if (n <= 0) {
        wl_display_terminate(display);
        return 0;
    }
    used += (size_t)n;
    char *end;
    while ((end = memchr(line, '\n', used))) {
        *end = 0;
        if (strncmp(line, "dump ", 5) == 0) {
            dump(line + 5);
        } else if (strncmp(line, "scale ", 6) == 0) {
            scale120 = atoi(line + 6);
            struct wl_resource *f;
            wl_resource_for_each(f, &fractionals) wp_fractional_scale_v1_send_preferred_scale(f, scale120);
            printf("scaled\n");
        }
        fflush(stdout);
        used -= (size_t)(end + 1 - line);
        memmove(line, end + 1, used);
    }
    wl_display_flush_clients(display);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 6 && !(argc == 7 && strcmp(argv[6], "late") == 0)) {
        fprintf(stderr, "usage: scale_compositor SOCKET WIDTH HEIGHT SCALE120 OUTPUT_SCALE [late]\n");
        return 64;
    }
    late = argc == 7;
    width = atoi(argv[2]);
    height = atoi(argv[3]);
    scale120 = atoi(argv[4]);
    output_scale = atoi(argv[5]);
    wl_list_init(&fractionals);
    display = wl_display_create();
    if (wl_display_add_socket(display, argv[1]) != 0) {
        fprintf(stderr, "scale_compositor: cannot listen on %s (XDG_RUNTIME_DIR?)\n", argv[1]);
        return 1;
    }
    wl_display_init_shm(display);
    wl_global_create(display, &wl_compositor_interface, 4, NULL, bind_compositor);
    wl_global_create(display, &wl_output_interface, 4, NULL, bind_output);
    wl_global_create(display, &zxdg_output_manager_v1_interface, 3, NULL, bind_xdg_output_manager);
    wl_global_create(display, &zwlr_layer_shell_v1_interface, 4, NULL, bind_layer_shell);
    if (scale120 > 0) {
        wl_global_create(display, &wp_viewporter_interface, 1, NULL, bind_viewporter);
        wl_global_create(display, &wp_fractional_scale_manager_v1_interface, 1, NULL, bind_fractional_manager);
    }
    wl_event_loop_add_fd(wl_display_get_event_loop(display), 0, WL_EVENT_READABLE, command, NULL);
    printf("ready\n");
    fflush(stdout);
    wl_display_run(display);
    wl_display_destroy(display);
    return 0;
}
