// SPDX-License-Identifier: MIT
import FoundationEssentials

/// Protocol v1: newline-delimited JSON over a Unix stream socket.
public enum ProtocolV1 {
    public static let version = 1
    public static let maxLineBytes = 64 * 1024
    /// Requests are flat; anything nested deeper is refused before decoding.
    static let maxNesting = 16

    /// Sorted keys, slashes as they are: every line the daemon writes.
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return e
    }()

    /// Decodes one line (with or without its newline) as `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(line.last == 0x0a ? line.dropLast() : line[...]))
    }
}
