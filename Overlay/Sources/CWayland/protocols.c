// SPDX-License-Identifier: MIT
// The protocol glue (interface tables) wayland-scanner generated from the
// protocols' XML, compiled here; and the one libc call Swift's Glibc lacks.
#define _GNU_SOURCE
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>
#include "include/CWayland.h"
#include "generated/xdg-shell-protocol.c"
#include "generated/xdg-output-unstable-v1-protocol.c"
#include "generated/wlr-layer-shell-unstable-v1-protocol.c"
#include "generated/viewporter-protocol.c"
#include "generated/fractional-scale-v1-protocol.c"
#include "generated/wlr-screencopy-unstable-v1-protocol.c"
#include "generated/tablet-unstable-v2-protocol.c"
#include "generated/wlr-data-control-unstable-v1-protocol.c"
#include "generated/text-input-unstable-v3-protocol.c"

int stylus_shm_file(int64_t size) {
    int fd = memfd_create("stylus-canvas", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    if (ftruncate(fd, size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

void *stylus_bind(struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    static const struct wl_interface *const known[] = {
        &wl_compositor_interface, &wl_shm_interface, &wl_output_interface, &wl_seat_interface,
        &zwlr_layer_shell_v1_interface, &xdg_wm_base_interface, &zxdg_output_manager_v1_interface,
        &wp_viewporter_interface, &wp_fractional_scale_manager_v1_interface, &zwlr_screencopy_manager_v1_interface,
        &zwp_tablet_manager_v2_interface, &zwlr_data_control_manager_v1_interface, &zwp_text_input_manager_v3_interface,
    };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        if (strcmp(known[i]->name, interface) == 0) return wl_registry_bind(registry, name, known[i], version);
    }
    return NULL;
}
