// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// Which udev seats have input devices, so that `stylusd --seat` with a
/// seat nothing is on (a typo, mostly) is said at start instead of giving
/// a daemon that silently never sees a pen.
public enum Seats {
    /// The seats named by udev database records (`/run/udev/data/c13:*`,
    /// the input devices): `E:ID_SEAT=` lines; a record without one is on seat0.
    public static func named(inRecords records: [String]) -> Set<String> {
        var seats: Set<String> = []
        for record in records {
            let line = record.split(separator: "\n").first { $0.hasPrefix("E:ID_SEAT=") }
            seats.insert(line.map { String($0.dropFirst("E:ID_SEAT=".count)) } ?? "seat0")
        }
        return seats
    }

    /// What to say about following `seat`, or nil when devices are on it.
    /// `known` is nil when the udev database could not be read.
    public static func warning(for seat: String, known: Set<String>?) -> String? {
        guard let known else {
            return seat == "seat0" ? nil
                : "cannot check seat \"\(seat)\": no udev database under /run/udev/data; following it anyway"
        }
        guard !known.contains(seat) else { return nil }
        let others = known.isEmpty ? "no input device is on any seat" : "udev has input devices on \(known.sorted().joined(separator: ", ")) only"
        return "no input device is on seat \"\(seat)\" (\(others)); following it anyway: a device udev assigns to it later is picked up"
    }

    /// The seats of the input devices in udev's database on this machine, or
    /// nil without a database (a container).
    public static func known(udevData directory: String = "/run/udev/data") -> Set<String>? {
        guard let dir = opendir(directory) else { return nil }
        var records: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // Character devices of major 13 are the input nodes.
            guard name.hasPrefix("c13:"), let bytes = try? readFile("\(directory)/\(name)", limit: 65_536) else { continue }
            records.append(String(decoding: bytes, as: UTF8.self))
        }
        closedir(dir)
        return named(inRecords: records)
    }
}
