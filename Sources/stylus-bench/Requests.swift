// SPDX-License-Identifier: MIT
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
    // What else a flood's requests cost the loop, per call: the answer's
    // envelope around a cached result, a fresh status (after each reload), and
    // the parser child's answer read back as a configuration.
    let status = StatusResult(canvas: .init(state: "open", hasContent: true, strokeCount: 12, pointCount: 3400, full: false),
                              precision: .init(enabled: true, active: false),
                              input: .init(mode: "pen", reason: nil, devices: [.init(device: 1, name: "Wacom Intuos Pro M Pen", kind: "pen"),
                                                                               .init(device: 2, name: "Wacom Intuos Pro M Pad", kind: "pad")]),
                              config: .init(intervalMS: 400, debounceMS: 25, transitionMS: 250),
                              output: .init(mode: "filter", requested: "auto", reason: "filter: stylusd grabs the pen", capturesPen: true))
    let cached = Response.EncodedResult(status)
    let envelope = best { (0..<count).reduce(0) { n, i in n + Response.success(id: .number(Double(i)), encodedResult: cached).count } }
    let fresh = best { (0..<count / 10).reduce(0) { n, _ in n + Response.EncodedResult(status).bytes.count } }
    let configJSON = (try? JSONEncoder().encode(EngineConfig())) ?? Data()
    let config = best { (0..<count / 10).reduce(0) { n, _ in n + ((try? JSONDecoder().decode(EngineConfig.self, from: configJSON)) == nil ? 0 : 1) } }
    print("answers envelope_us=\(rounded(envelope.seconds / Double(count) * 1e6, 1000)) status_encode_us=\(rounded(fresh.seconds / Double(count / 10) * 1e6, 1000)) "
          + "config_decode_us=\(rounded(config.seconds / Double(count / 10) * 1e6, 1000)) config_bytes=\(configJSON.count)")
    print("requests lines=\(count * lines.count) ours_us=\(rounded(perLine(ours.seconds), 1000)) "
          + "jsondecoder_us=\(rounded(perLine(foundation.seconds), 1000)) ratio=\(rounded(foundation.seconds / ours.seconds, 10))")
}
