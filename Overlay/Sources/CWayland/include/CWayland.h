// SPDX-License-Identifier: MIT
// libwayland-client, xkbcommon and the protocol glue wayland-scanner generates
// at build time (make overlay writes generated/), for stylus-canvas's
// layer-shell and toplevel canvases. cairo comes from CGlib, not from here, so that its
// types are declared once.
#ifndef STYLUS_CWAYLAND_H
#define STYLUS_CWAYLAND_H
#include <stdint.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>
#include "../generated/xdg-shell-client-protocol.h"
#include "../generated/xdg-output-unstable-v1-client-protocol.h"
#include "../generated/wlr-layer-shell-unstable-v1-client-protocol.h"
#include "../generated/viewporter-client-protocol.h"
#include "../generated/fractional-scale-v1-client-protocol.h"
#include "../generated/wlr-screencopy-unstable-v1-client-protocol.h"
#include "../generated/tablet-unstable-v2-client-protocol.h"
#include "../generated/wlr-data-control-unstable-v1-client-protocol.h"
#include "../generated/text-input-unstable-v3-client-protocol.h"

/// wl_registry_bind for the globals stylus-canvas uses, by interface name
/// (Swift cannot take the address of the C interface tables); NULL for others.
void *stylus_bind(struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version);

/// An anonymous shared-memory file of `size` bytes for a wl_shm pool; -1 and errno on failure.
int stylus_shm_file(int64_t size);
#endif
