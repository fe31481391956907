import FoundationEssentials
import StylusConfig
import StylusCore
#if canImport(Glibc)
import Glibc
#endif

/// Exit statuses, so scripts can tell what went wrong.
enum Status {
    static let notRunning: Int32 = 69      // EX_UNAVAILABLE
    static let refused: Int32 = 3
    static let protocolError: Int32 = 76   // EX_PROTOCOL
    static let badConfig: Int32 = 78       // EX_CONFIG
}

struct ClientFailure: Error {
    var status: Int32
    var message: String
}

/// A blocking connection to the daemon: one request at a time, events in between.
final class Connection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1
    let path: String

    init(socket explicit: String?) throws(ClientFailure) {
        let environment = ProcessEnvironment.current
        switch SocketLocation.resolve(explicit: explicit, environment: environment) {
        case .success(let p): path = p
        case .failure(let e): throw ClientFailure(status: Status.notRunning, message: e.description)
        }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ClientFailure(status: Status.notRunning, message: "\(path): not a usable socket path")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ClientFailure(status: Status.notRunning, message: """
                stylusd is not running (\(path): \(reason)).
                Start it with `systemctl --user start stylusd`, or run `stylusd` in a terminal.
                """)
        }
        guard let hello = try readLine(), case .object(let o) = hello else {
            throw ClientFailure(status: Status.protocolError, message: "\(path): the daemon sent no greeting")
        }
        if case .string("refused") = o["event"] {
            let reason = o["reason"].flatMap { if case .string(let r) = $0 { r } else { nil } } ?? "refused"
            throw ClientFailure(status: Status.refused, message: "stylusd refused the connection: \(reason)")
        }
    }

    deinit { close(fd) }

    /// Sends one request and returns its result; events that arrive first go to `onEvent`.
    func request(_ cmd: String, _ fields: [String: JSONValue] = [:], onEvent: (([UInt8], JSONValue) -> Void)? = nil) throws(ClientFailure) -> JSONValue {
        let id = nextID
        nextID += 1
        var object = fields
        object["id"] = .number(Double(id))
        object["cmd"] = .string(cmd)
        guard var line = try? Array(JSONEncoder().encode(JSONValue.object(object))) else {
            throw ClientFailure(status: Status.protocolError, message: "cannot encode the request")
        }
        line.append(0x0a)
        try send(line)
        while true {
            guard let (raw, value) = try readRawLine() else {
                throw ClientFailure(status: Status.protocolError, message: "the daemon closed the connection before answering")
            }
            guard case .object(let o) = value else { continue }
            if o["event"] != nil {
                onEvent?(raw, value)
                continue
            }
            guard o["id"] == .number(Double(id)) else { continue }
            if case .bool(true) = o["ok"] { return o["result"] ?? .null }
            var message = "the daemon refused the command"
            if case .object(let e)? = o["error"], case .string(let m)? = e["message"] {
                message = m
                if case .string(let code)? = e["code"], code != "refused" { message = "\(code): \(m)" }
            }
            throw ClientFailure(status: Status.refused, message: message)
        }
    }

    private func send(_ bytes: [UInt8]) throws(ClientFailure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ClientFailure(status: Status.notRunning, message: "lost the connection to stylusd: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    func readLine() throws(ClientFailure) -> JSONValue? { try readRawLine()?.1 }

    /// The next line, raw and decoded; nil at end of stream.
    func readRawLine() throws(ClientFailure) -> ([UInt8], JSONValue)? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0a) {
                let raw = Array(buffer[...newline])
                buffer.removeSubrange(...newline)
                guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(raw.dropLast())) else {
                    throw ClientFailure(status: Status.protocolError, message: "the daemon sent a line that is not JSON")
                }
                return (raw, value)
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ClientFailure(status: Status.notRunning, message: "lost the connection to stylusd: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return nil }
            buffer += chunk[0..<n]
        }
    }
}
