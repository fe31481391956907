import FoundationEssentials
import StylusCore
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `stylus-bench requests N`: the daemon's cost of reading one request line,
/// with its parser and with JSONDecoder (what it used before, the peer),
/// over the lines a flood sends (docs/SECURITY.md): N of each, best of 5.
func requests(count: Int) {
    let lines = [#"{"id":1,"cmd":"status"}"#, #"{"id":17,"cmd":"devices"}"#, #"{"id":"r-42","cmd":"reload"}"#,
                 #"{"id":3,"cmd":"subscribe","topics":["pen","canvas","double-press"]}"#].map { Array($0.utf8) }
    func best(_ body: () -> Int) -> (seconds: Double, checksum: Int) {
        var fastest = Double.infinity, checksum = 0
        for _ in 0..<5 {
            let start = now()
            checksum = body()
            fastest = min(fastest, now() - start)
        }
        return (fastest, checksum)
    }
    let ours = best {
        var n = 0
        for _ in 0..<count { for line in lines { if case .success = Request.decode(line) { n += 1 } } }
        return n
    }
    let foundation = best {
        var n = 0
        for _ in 0..<count {
            for line in lines {
                if case .object(let o)? = try? JSONDecoder().decode(JSONValue.self, from: Data(line)), o["cmd"] != nil { n += 1 }
            }
        }
        return n
    }
    guard ours.checksum == count * lines.count, foundation.checksum == count * lines.count else {
        fail("a line did not decode: \(ours.checksum) and \(foundation.checksum) of \(count * lines.count)")
    }
    let perLine = { (s: Double) in s / Double(count * lines.count) * 1e6 }
    func rounded(_ x: Double, _ places: Double) -> Double { (x * places).rounded() / places }
    print("requests lines=\(count * lines.count) ours_us=\(rounded(perLine(ours.seconds), 1000)) "
          + "jsondecoder_us=\(rounded(perLine(foundation.seconds), 1000)) ratio=\(rounded(foundation.seconds / ours.seconds, 10))")
}
