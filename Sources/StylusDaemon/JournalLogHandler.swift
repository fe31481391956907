// SPDX-License-Identifier: MIT
import Logging
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// swift-log's sink for the daemon: one line per message on stderr. Under
/// systemd (JOURNAL_STREAM names stderr) each line starts with the kernel's
/// `<N>` priority prefix, so `journalctl -p warning` finds the warnings;
/// in a terminal it is the plain `stylusd: message` a person reads.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let prefixesPriority: Bool
    private let fd: Int32

    public init(environment: [String: String], fd: Int32 = STDERR_FILENO) {
        self.fd = fd
        prefixesPriority = Self.stderrIsTheJournal(environment["JOURNAL_STREAM"], fd: fd)
    }

    /// JOURNAL_STREAM is "device:inode" of the stream systemd connected; it
    /// counts only if stderr is still that stream (not redirected since).
    static func stderrIsTheJournal(_ value: String?, fd: Int32) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// syslog(3)'s priorities, which the journal reads from the prefix.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    public func line(_ level: Logger.Level, _ message: String) -> String {
        prefixesPriority ? "<\(Self.priority(level))>\(message)\n" : "stylusd: \(message)\n"
    }

    public func log(event: LogEvent) {
        writeAll(fd, Array(line(event.level, event.message.description).utf8))
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
