// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

func printError(_ text: String) {
    _ = writeAll(STDERR_FILENO, Array((text + "\n").utf8))
}

/// Writes at once with write(2), so each line reaches a pipe or a file the
/// moment it is known. A reader that went away (`| head`) ends stylusctl quietly.
func emit(_ bytes: [UInt8]) {
    if !writeAll(STDOUT_FILENO, bytes) { exit(errno == EPIPE ? 0 : 1) }
}

func emit(_ text: String) { emit(Array((text + "\n").utf8)) }

func json(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
}
