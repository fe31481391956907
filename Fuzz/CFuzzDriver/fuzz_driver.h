// SPDX-License-Identifier: MIT
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver as a library call (compiler-rt, -sanitize=fuzzer), so
 * the fuzzer can keep a main of its own that picks the target. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
