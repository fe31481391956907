// SPDX-License-Identifier: MIT
// A virtual pointer for a Wayland desktop of WIDTH x HEIGHT logical pixels,
// through wlr-virtual-pointer: headless sway has no input devices, so the
// layer-shell tests click with this. It lives as long as the test's session,
// so that clients have bound the seat's pointer before the first click (a
// pointer that appears and clicks at once clicks into clients that have not).
// Reads lines and answers "ok" once the compositor has them: "click X Y";
// "down X Y", "move X Y", "up" (a drag: the left button held through the moves).
// Built by the tests (cc, against the glue wayland-scanner writes from the
// protocol's XML).
//     pointer WIDTH HEIGHT
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

static struct zwlr_virtual_pointer_manager_v1 *manager;
static struct wl_seat *seat;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data; (void)version;
    if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
        manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    else if (strcmp(interface, wl_seat_interface.name) == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }

static const struct wl_registry_listener registry_listener = { global, global_remove };

static uint32_t time_ms;

static void move(struct zwlr_virtual_pointer_v1 *pointer, unsigned x, unsigned y, unsigned w, unsigned h) {
    zwlr_virtual_pointer_v1_motion_absolute(pointer, time_ms += 10, x, y, w, h);
    zwlr_virtual_pointer_v1_frame(pointer);
}

static void button(struct zwlr_virtual_pointer_v1 *pointer, enum wl_pointer_button_state state) {
    zwlr_virtual_pointer_v1_button(pointer, time_ms += 10, BTN_LEFT, state);
    zwlr_virtual_pointer_v1_frame(pointer);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: pointer WIDTH HEIGHT, then lines: click X Y | down X Y | move X Y | up\n");
        return 64;
    }
    unsigned w = atoi(argv[1]), h = atoi(argv[2]);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "pointer: no Wayland display\n");
        return 69;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!manager) {
        fprintf(stderr, "pointer: the compositor offers no zwlr_virtual_pointer_manager_v1\n");
        return 69;
    }
    struct zwlr_virtual_pointer_v1 *pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, seat);
    wl_display_roundtrip(display);
    printf("ready\n");
    fflush(stdout);
    char line[128];
    unsigned x, y;
    while (fgets(line, sizeof line, stdin)) {
        int click = sscanf(line, "click %u %u", &x, &y) == 2;
        if (click || sscanf(line, "down %u %u", &x, &y) == 2) {
            // Moved off the point and onto it, so that the client under it gets an enter and a motion.
            move(pointer, x > 0 ? x - 1 : x + 1, y, w, h);
            move(pointer, x, y, w, h);
            button(pointer, WL_POINTER_BUTTON_STATE_PRESSED);
            if (click) button(pointer, WL_POINTER_BUTTON_STATE_RELEASED);
        } else if (sscanf(line, "move %u %u", &x, &y) == 2) {
            move(pointer, x, y, w, h);
        } else if (strncmp(line, "up", 2) == 0) {
            button(pointer, WL_POINTER_BUTTON_STATE_RELEASED);
        } else {
            fprintf(stderr, "pointer: not a command: %s", line);
            continue;
        }
        wl_display_roundtrip(display);
        printf("ok\n");
        fflush(stdout);
    }
    zwlr_virtual_pointer_v1_destroy(pointer);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
