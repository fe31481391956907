// SPDX-License-Identifier: MIT
import CLinux
import StylusCore
import StylusInput
#if canImport(Glibc)
import Glibc
#endif

/// `stylus-bench fanout SOCKET N SECONDS`: N clients subscribed to `pen`,
/// read with epoll; each sample's latency is the receive time (CLOCK_MONOTONIC)
/// minus its time_us, which for --replay at speed 1 is when the daemon released
/// it. Prints "fanout: n=… p50=… p99=… max=…" in µs.
func fanout(socketPath: String, clients: Int, seconds: Double) {
    let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    for _ in 0..<clients {
        let fd: Int32
        do { fd = try UnixSocketAddress(path: socketPath).connectStream() } catch { fail("\(error)") }
        let request = Array("{\"id\":1,\"cmd\":\"subscribe\",\"topics\":[\"pen\"]}\n".utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
    }
    var latencies: [Double] = []
    latencies.reserveCapacity(1 << 20)
    var events = [epoll_event](repeating: epoll_event(), count: 256)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var pending = [[UInt8]](repeating: [], count: 4096)
    let penPrefix = Array("{\"event\":\"pen\"".utf8)
    let end = monotonicMicroseconds() + Int64(seconds * 1_000_000)
    // Samples released before every client has subscribed are not counted.
    let countFrom = monotonicMicroseconds() + 500_000

    /// A pen line ends in `"time_us":DIGITS}`: read the digits backwards.
    func record<C: Collection<UInt8>>(_ line: C, _ now: Int64) where C.Index == Int {
        guard line.count > penPrefix.count, line.starts(with: penPrefix) else { return }
        var i = line.endIndex - 1
        if line[i] == UInt8(ascii: "}") { i -= 1 }
        var value: Int64 = 0, scale: Int64 = 1
        while i >= line.startIndex, line[i] >= 0x30, line[i] <= 0x39 {
            value += Int64(line[i] - 0x30) * scale
            scale *= 10
            i -= 1
        }
        if value >= countFrom { latencies.append(Double(now - value)) }
    }

    while monotonicMicroseconds() < end {
        let n = epoll_wait(epoll, &events, Int32(events.count), 200)
        for e in 0..<max(0, Int(n)) {
            let fd = Int(events[e].data.fd)
            let got = chunk.withUnsafeMutableBytes { read(Int32(fd), $0.baseAddress!, $0.count) }
            let now = monotonicMicroseconds()
            guard got > 0 else { continue }
            var lineStart = 0
            for i in 0..<got where chunk[i] == 0x0a {
                if pending[fd].isEmpty {
                    record(chunk[lineStart..<i], now)
                } else {
                    pending[fd] += chunk[lineStart..<i]
                    record(pending[fd][...], now)
                    pending[fd].removeAll(keepingCapacity: true)
                }
                lineStart = i + 1
            }
            if lineStart < got { pending[fd] += chunk[lineStart..<got] }
        }
    }
    latencies.sort()
    guard !latencies.isEmpty else { fail("no pen samples arrived") }
    func p(_ q: Double) -> Int { Int(latencies[min(latencies.count - 1, Int(q * Double(latencies.count - 1)))]) }
    print("fanout: n=\(latencies.count) p50=\(p(0.5)) p99=\(p(0.99)) max=\(Int(latencies.last!))")
}
