// SPDX-License-Identifier: MIT
// An input method for the layer-shell tests, through zwp_input_method_v2 (sway
// offers it with text-input-v3): what a CJK or compose IM does to a text
// input, driven line by line from stdin, each answered on stdout once the
// compositor has it:
//   "wait-active"   answers "active" when the compositor activates the IM (a
//                   client enabled its text input), at once if it is active;
//   "preedit TEXT"  shows TEXT as the preedit, caret at its end: "ok";
//   "commit TEXT"   commits TEXT, which ends the preedit: "ok";
// Prints "ready" once bound, "unavailable" and exits 69 when another IM has the seat.
// Built by the tests (cc, against the glue wayland-scanner writes from the XML).
//     input_method
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>
#include "input-method-unstable-v2-client-protocol.h"

static struct zwp_input_method_manager_v2 *manager;
static struct wl_seat *seat;
static struct zwp_input_method_v2 *im;
static uint32_t serial;              // the done events so far, which each commit names
static bool active, pending_active;  // activate/deactivate take effect at done
static bool answer_active;           // a "wait-active" waits for it

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data; (void)version;
    if (strcmp(interface, zwp_input_method_manager_v2_interface.name) == 0)
        manager = wl_registry_bind(registry, name, &zwp_input_method_manager_v2_interface, 1);
    else if (strcmp(interface, wl_seat_interface.name) == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }

static const struct wl_registry_listener registry_listener = { global, global_remove };

static void say(const char *line) {
    printf("%s\n", line);
    fflush(stdout);
}

static void activate(void *data, struct zwp_input_method_v2 *m) { (void)data; (void)m; pending_active = true; }
static void deactivate(void *data, struct zwp_input_method_v2 *m) { (void)data; (void)m; pending_active = false; }
static void surrounding_text(void *data, struct zwp_input_method_v2 *m, const char *text, uint32_t cursor, uint32_t anchor) {
    (void)data; (void)m; (void)text; (void)cursor; (void)anchor;
}
static void text_change_cause(void *data, struct zwp_input_method_v2 *m, uint32_t cause) { (void)data; (void)m; (void)cause; }
static void content_type(void *data, struct zwp_input_method_v2 *m, uint32_t hint, uint32_t purpose) {
    (void)data; (void)m; (void)hint; (void)purpose;
}

static void done(void *data, struct zwp_input_method_v2 *m) {
    (void)data; (void)m;
    serial++;
    active = pending_active;
    if (active && answer_active) {
        answer_active = false;
        say("active");
    }
}

static void unavailable(void *data, struct zwp_input_method_v2 *m) {
    (void)data; (void)m;
    say("unavailable");
    exit(69);
}

static const struct zwp_input_method_v2_listener im_listener = {
    activate, deactivate, surrounding_text, text_change_cause, content_type, done, unavailable,
};

static void command(struct wl_display *display, char *line) {
    line[strcspn(line, "\n")] = 0;
    if (strcmp(line, "wait-active") == 0) {
        if (active) say("active");
        else answer_active = true;
        return;
    }
    if (strncmp(line, "preedit ", 8) == 0) {
        const char *text = line + 8;
        zwp_input_method_v2_set_preedit_string(im, text, (int32_t)strlen(text), (int32_t)strlen(text));
        zwp_input_method_v2_commit(im, serial);
    } else if (strncmp(line, "commit ", 7) == 0) {
        zwp_input_method_v2_commit_string(im, line + 7);
        zwp_input_method_v2_commit(im, serial);
    } else {
        fprintf(stderr, "input_method: unknown command %s\n", line);
        say("error");
        return;
    }
    wl_display_roundtrip(display);
    say("ok");
}

int main(void) {
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "input_method: no Wayland display\n");
        return 69;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!manager || !seat) {
        fprintf(stderr, "input_method: the compositor offers no zwp_input_method_manager_v2\n");
        return 69;
    }
    im = zwp_input_method_manager_v2_get_input_method(manager, seat);
    zwp_input_method_v2_add_listener(im, &im_listener, NULL);
    wl_display_roundtrip(display);
    say("ready");
    char line[512];
    for (;;) {
        wl_display_flush(display);
        struct pollfd fds[2] = { { wl_display_get_fd(display), POLLIN, 0 }, { STDIN_FILENO, POLLIN, 0 } };
        if (poll(fds, 2, -1) < 0) return 70;
        if (fds[0].revents & POLLIN) {
            if (wl_display_dispatch(display) < 0) return 70;
        } else if (fds[0].revents & (POLLERR | POLLHUP)) {
            return 70;
        }
        if (fds[1].revents & (POLLIN | POLLHUP)) {
            if (!fgets(line, sizeof line, stdin)) return 0;
            command(display, line);
        }
    }
}
