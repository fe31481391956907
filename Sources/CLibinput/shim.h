// SPDX-License-Identifier: MIT
#include <libinput.h>
#include <libudev.h>
