// SPDX-License-Identifier: MIT
#include <libwacom/libwacom.h>
