// SPDX-License-Identifier: MIT
// The system layer (readFile, the monotonic clock, SystemCallError) is part of
// what this module offers its users: every file here and its callers use it.
@_exported import StylusSystem
