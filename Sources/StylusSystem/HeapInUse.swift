// SPDX-License-Identifier: MIT
import CLinux

/// The bytes this process's malloc has handed out and not had back.
public func heapBytesInUse() -> Int { Int(clinux_heap_in_use()) }
