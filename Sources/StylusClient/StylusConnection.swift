// SPDX-License-Identifier: MIT
public import StylusCore
public import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// A blocking connection to stylusd: one request at a time, on one thread.
/// Events that arrive while a response is awaited are kept, in order, for
/// `nextEvent()`.
public final class StylusConnection {
    public let path: String
    /// The daemon's greeting: its version, topics and commands.
    public let hello: HelloEvent
    private let fd: Int32
    private var buffer = LineBuffer(limit: StylusConnection.maxLineBytes)
    private var pendingEvents: [EventLine] = []
    private var nextID = 1
    /// When set, a byte readable here makes a blocked read throw `.cancelled`.
    var wakeFD: Int32 = -1
    /// The longest line taken from the daemon: no answer it queues for one
    /// client is larger (its outbound queue's hard limit), and a longer line
    /// means something other than stylusd at the socket.
    static let maxLineBytes = 64 << 20

    /// The socket path: `socket`, else `$STYLUSD_SOCKET`, else `$XDG_RUNTIME_DIR/stylusd/stylusd.sock`.
    public static func resolvePath(socket: String? = nil, environment: [String: String] = socketEnvironment) throws(StylusClientError) -> String {
        switch SocketLocation.resolve(explicit: socket, environment: environment) {
        case .success(let path): return path
        case .failure(let error): throw StylusClientError(.notRunning, error.description)
        }
    }

    /// The two variables the socket path depends on, from this process's environment.
    public static var socketEnvironment: [String: String] {
        ["STYLUSD_SOCKET", "XDG_RUNTIME_DIR"].reduce(into: [:]) { result, name in
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
    }

    /// Connects to the daemon found by the usual rules and reads its greeting.
    public convenience init(socket: String? = nil, environment: [String: String] = socketEnvironment) throws(StylusClientError) {
        try self.init(path: Self.resolvePath(socket: socket, environment: environment))
    }

    /// Connects to the daemon at `path` and reads its greeting.
    public init(path: String) throws(StylusClientError) {
        self.path = path
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw StylusClientError(.notRunning, "\(path): not a usable socket path")
        }
        do {
            fd = try address.connectStream()
        } catch {
            // Something that is there but is no socket is a wrong path, not a stopped daemon.
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFSOCK {
                let what = info.st_mode & S_IFMT == S_IFDIR ? "a directory" : info.st_mode & S_IFMT == S_IFREG ? "a regular file" : "not a socket"
                throw StylusClientError(.notRunning, "\(path) is \(what), not stylusd's socket: give the socket with --socket or STYLUSD_SOCKET "
                                        + "(by default $XDG_RUNTIME_DIR/stylusd/stylusd.sock)")
            }
            throw StylusClientError(.notRunning, "stylusd is not running (\(path): \(error.errno.reason)).\n"
                                    + Self.howToStart(unitInstalled: Self.userUnitInstalled()))
        }
        var greeting: HelloEvent?
        do {
            greeting = try Self.greeting(Self.readLine(fd, &buffer, wake: -1), path: path)
        } catch {
            close(fd)
            throw error
        }
        hello = greeting!
    }

    deinit { close(fd) }

    /// What to do about a daemon that is not running, for where stylusd is installed or not.
    static func howToStart(unitInstalled: Bool) -> String {
        if unitInstalled {
            return "Start it with `systemctl --user start stylusd`, or run `stylusd` in a terminal."
        }
        return "Run `stylusd` in a terminal, or `make run` in its source tree (without a login session that "
            + "one's socket is .build/run/stylusd/stylusd.sock there: give it with --socket or STYLUSD_SOCKET)."
    }

    /// Whether a stylusd.service user unit is installed where systemd looks for one.
    static func userUnitInstalled() -> Bool {
        var directories = ["/etc/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user", "/lib/systemd/user"]
        let variable = { (name: String) in getenv(name).map { String(cString: $0) } }
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            directories.append("\(config)/systemd/user")
        } else if let home = variable("HOME"), home.hasPrefix("/") {
            directories.append("\(home)/.config/systemd/user")
        }
        return directories.contains { access("\($0)/stylusd.service", F_OK) == 0 }
    }

    private static func greeting(_ raw: [UInt8]?, path: String) throws(StylusClientError) -> HelloEvent {
        guard let raw, case .event(let event)? = ServerLine.decode(raw) else {
            throw StylusClientError(.protocolViolation, "\(path): the daemon sent no greeting")
        }
        if event.name == "refused" {
            let reason = if case .string(let r)? = event.fields["reason"] { r } else { "refused" }
            throw StylusClientError(.connectionRefused, "stylusd refused the connection: \(reason)")
        }
        guard event.name == "hello", let hello = try? ProtocolV1.decode(HelloEvent.self, from: raw) else {
            throw StylusClientError(.protocolViolation, "\(path): the daemon sent no greeting")
        }
        return hello
    }

    // MARK: Requests

    /// Sends one command and returns its response, whatever its result type.
    public func send(_ command: ClientCommand) throws(StylusClientError) -> ResponseLine {
        let id = JSONValue.number(Double(nextID))
        nextID += 1
        try write(Request(id: id, command: command).line)
        while true {
            switch try readServerLine() {
            case nil:
                throw StylusClientError(.protocolViolation, "the daemon closed the connection before answering")
            case .event(let event)?:
                pendingEvents.append(event)
            case .response(let response)? where response.id == id:
                return response
            case .response?:
                continue
            }
        }
    }

    /// Sends one command and decodes its result as `R`; an error answer throws `.commandFailed`.
    public func request<R: Decodable>(_ command: ClientCommand, as type: R.Type = R.self) throws(StylusClientError) -> R {
        let response = try send(command)
        do {
            return try response.result(as: R.self)
        } catch {
            // A result that does not decode is the daemon's fault; an error it answered is the command's.
            throw response.ok || error.code == .badJSON ? StylusClientError(.protocolViolation, error.message) : StylusClientError(error)
        }
    }

    public func status() throws(StylusClientError) -> StatusResult { try request(.status) }
    public func toggle() throws(StylusClientError) -> StatusResult { try request(.toggle) }
    public func open() throws(StylusClientError) -> StatusResult { try request(.open) }
    public func minimize() throws(StylusClientError) -> StatusResult { try request(.minimize) }
    public func ack() throws(StylusClientError) -> StatusResult { try request(.ack) }
    public func clear() throws(StylusClientError) -> StatusResult { try request(.clear) }
    /// Removes the last finished stroke; `changed` is false (with a reason) when there is none.
    public func undo() throws(StylusClientError) -> StatusResult { try request(.undo) }
    public func redo() throws(StylusClientError) -> StatusResult { try request(.redo) }
    /// Writes the drawing to `path` (absolute; PNG or SVG by its extension), at `width`×`height` or the default size.
    public func export(_ path: String, width: Int? = nil, height: Int? = nil) throws(StylusClientError) -> ExportResult {
        try request(.export(path: path, width: width, height: height))
    }
    /// Ends the drawing as submitted: a PNG in the export folder, then a clear and a minimize.
    public func submit() throws(StylusClientError) -> ExportResult { try request(.submit) }
    /// `submit` with its options: `inline` gives the PNG back in `pngBase64` and keeps no file.
    public func submit(_ options: SubmitOptions) throws(StylusClientError) -> ExportResult { try request(.submitWith(options)) }
    /// Ends the drawing as cancelled: a minimize and a clear that undo takes back.
    public func discard() throws(StylusClientError) -> StatusResult { try request(.discard) }
    /// The style of the next strokes; with any part given, changed to it.
    public func tool(_ tool: DrawingTool? = nil, color: StrokeColor? = nil, width: Double? = nil) throws(StylusClientError) -> StatusResult {
        try request(.tool(tool: tool, color: color, width: width))
    }
    public func palette(_ action: PaletteRequest) throws(StylusClientError) -> StatusResult { try request(.palette(action)) }
    /// Where a canvas's palette is; the daemon keeps it while this connection stays open.
    public func reportPalette(_ regions: [PaletteRegion]) throws(StylusClientError) -> StatusResult { try request(.paletteRegions(regions)) }
    public func reload() throws(StylusClientError) -> StatusResult { try request(.reload) }
    public func precision(_ action: PrecisionRequest) throws(StylusClientError) -> StatusResult { try request(.precision(action)) }
    public func output(_ mode: OutputChoice) throws(StylusClientError) -> StatusResult { try request(.output(mode)) }
    /// An overlay saying how it reaches the screen; `status` shows it while this process runs.
    public func reportOverlay(_ report: OverlayReport) throws(StylusClientError) -> StatusResult { try request(.overlay(report)) }
    public func strokes() throws(StylusClientError) -> StrokesResult { try request(.strokes) }
    /// The strokes from index `from` on, with `from` and `count` (the drawing's strokes) in the answer.
    public func strokes(from index: Int) throws(StylusClientError) -> StrokesResult { try request(.strokesFrom(index)) }
    public func devices() throws(StylusClientError) -> DevicesResult { try request(.devices) }
    public func subscribe(_ topics: [Topic] = Topic.defaults) throws(StylusClientError) -> TopicsResult { try request(.subscribe(topics)) }
    public func unsubscribe(_ topics: [Topic]) throws(StylusClientError) -> TopicsResult { try request(.unsubscribe(topics)) }

    // MARK: Events

    /// The next event (first those that arrived while a response was awaited); nil once the daemon closes.
    public func nextEvent() throws(StylusClientError) -> EventLine? {
        if !pendingEvents.isEmpty { return pendingEvents.removeFirst() }
        while true {
            switch try readServerLine() {
            case nil: return nil
            case .event(let event)?: return event
            case .response?: continue
            }
        }
    }

    // MARK: Bytes

    private func readServerLine() throws(StylusClientError) -> ServerLine? {
        guard let raw = try Self.readLine(fd, &buffer, wake: wakeFD) else { return nil }
        guard let line = ServerLine.decode(raw) else {
            throw StylusClientError(.protocolViolation, "the daemon sent a line that is not JSON")
        }
        return line
    }

    private func write(_ bytes: [UInt8]) throws(StylusClientError) {
        var offset = 0
        while offset < bytes.count {
            // send, not write: a daemon gone away is an error here, not SIGPIPE.
            guard let n = bytes[offset...].withUnsafeBytes({ sendWithoutSignal(fd, $0) }), n >= 0 else {
                throw Self.lost(SystemCallError.last("send"))
            }
            offset += n
        }
    }

    private static func lost(_ error: SystemCallError) -> StylusClientError {
        StylusClientError(.notRunning, "lost the connection to stylusd: \(error.errno.reason)")
    }

    /// One line without its newline; nil at end of stream.
    private static func readLine(_ fd: Int32, _ buffer: inout LineBuffer, wake: Int32) throws(StylusClientError) -> [UInt8]? {
        while true {
            do throws(LineTooLong) {
                if let line = try buffer.nextLine() { return line }
            } catch {
                throw StylusClientError(.protocolViolation, "the daemon sent \(error), more than a client takes")
            }
            if wake >= 0 {
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
                if retryingInterrupts({ poll(&fds, 2, -1) }) < 0 { throw lost(SystemCallError.last("poll")) }
                if fds[1].revents != 0 { throw StylusClientError(.cancelled, "cancelled") }
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { space in retryingInterrupts { read(fd, space.baseAddress, space.count) } }
            if n < 0 { throw lost(SystemCallError.last("read")) }
            if n == 0 { return nil }
            chunk.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }
}
