// SPDX-License-Identifier: MIT
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <sys/ioctl.h>
#include <linux/uinput.h>

// libevdev's uinput API copies a device's name, ids, bits and ABS ranges
// but never issues UI_SET_PHYS, and Swift cannot import the ioctl number
// (a function-like macro). Call on the /dev/uinput descriptor before
// libevdev_uinput_create_from_device.
static inline int stylusd_uinput_set_phys(int uinput_fd, const char *phys) {
    return ioctl(uinput_fd, UI_SET_PHYS, phys);
}
