// SPDX-License-Identifier: MIT
import CLibevdev
import CLibinput
import CLinux
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// libinput says which node it could not open only in its log, at info
/// level: "…: opening input device '/dev/input/event5' failed (Permission
/// denied)." The sink keeps those paths for `dispatch` to report, and passes
/// libinput's errors on to stderr as libinput's own handler would.
final class LogSink {
    var failedOpens: [String] = []

    static func attach(to li: OpaquePointer) {
        libinput_log_set_priority(li, LIBINPUT_LOG_PRIORITY_INFO)
        libinput_log_set_handler(li) { li, priority, format, args in
            guard let li, let format, let args, let user = libinput_get_user_data(li) else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, args)
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let sink = Unmanaged<LogSink>.fromOpaque(user).takeUnretainedValue()
            if let path = LogSink.failedOpen(in: message) {
                sink.failedOpens.append(path)
            } else if priority == LIBINPUT_LOG_PRIORITY_ERROR {
                _ = "stylusd: libinput: \(message)".withCString { write(2, $0, strlen($0)) }
            }
        }
    }

    static func failedOpen(in message: String) -> String? {
        let bytes = Array(message.utf8)
        func find(_ needle: String, from: Int) -> Int? {
            let n = Array(needle.utf8)
            guard bytes.count >= n.count, from <= bytes.count - n.count else { return nil }
            return (from...(bytes.count - n.count)).first { bytes[$0..<($0 + n.count)].elementsEqual(n) }
        }
        let opening = "opening input device '"
        guard let start = find(opening, from: 0), let end = find("' failed", from: start + opening.utf8.count) else { return nil }
        return String(decoding: bytes[(start + opening.utf8.count)..<end], as: UTF8.self)
    }
}
