// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusConfig
import StylusConfigParser
import StylusCore
import StylusDaemon
import StylusProtocol
import StylusInput

/// What a fuzzer feeds: the three ways untrusted bytes reach stylusd.
/// Each target returns the invariants the input broke (none is a pass), so
/// the same code serves libFuzzer (which aborts on a finding) and the
/// regression tests (which name it).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Bytes from a socket client: cut into lines, decoded, answered.
    case `protocol`
    /// An evemu recording: read, then replayed through the engine.
    case evemu
    /// config.toml.
    case config

    public func run(_ bytes: [UInt8]) -> [String] {
        switch self {
        case .protocol: ProtocolFuzz.run(bytes)
        case .evemu: EvemuFuzz.run(bytes)
        case .config: ConfigFuzz.run(bytes)
        }
    }
}

enum ProtocolFuzz {
    static func run(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        // The first byte picks how the stream is split into reads, so
        // lines that straddle reads are covered too.
        let chunk = 1 + Int(bytes.first ?? 0) % 64
        var inbound = InboundLines()
        var offset = 0
        var lines: [[UInt8]] = []
        var refused = false
        while offset < bytes.count, !refused {
            let end = min(bytes.count, offset + chunk)
            bytes[offset..<end].withUnsafeBytes { inbound.append($0) }
            offset = end
            guard let taken = inbound.takeLines(limit: 512) else { refused = true; break }
            lines += taken
        }
        for line in lines {
            // One CR before the newline is the line ending; a second one is the line's own.
            if line.isEmpty || line.contains(0x0a) {
                problems.append("line splitter produced \(line.count) bytes with a newline or nothing")
            }
            let response: [UInt8]
            switch Request.decode(line) {
            case .failure(let failure):
                if failure.error.message.isEmpty { problems.append("\(failure.error.code.rawValue) without a message") }
                response = Response.failure(id: failure.id, failure.error)
            case .success(let request):
                response = Response.success(id: request.id, ["decoded": "\(request.command)"])
            }
            problems += checkResponse(response)
        }
        return problems
    }

    /// Every answer is one line of JSON, an object with "ok".
    static func checkResponse(_ line: [UInt8]) -> [String] {
        guard line.last == 0x0a, line.firstIndex(of: 0x0a) == line.count - 1 else {
            return ["response is not exactly one line: \(String(decoding: line, as: UTF8.self))"]
        }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.dropLast())),
              case .object(let object) = value, case .bool? = object["ok"] else {
            return ["response is not a JSON object with \"ok\": \(String(decoding: line, as: UTF8.self))"]
        }
        return []
    }
}

enum EvemuFuzz {
    static func run(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let lineCount = bytes.reduce(1) { $0 + ($1 == 0x0a ? 1 : 0) }
        var replay: EngineReplay?
        var events = 0
        func check(_ event: EngineEvent) {
            events += 1
            var line = event.jsonLine()
            guard line.last == 0x0a else { return problems.append("event line without its newline") }
            line.removeLast()
            guard case .object? = try? JSONDecoder().decode(JSONValue.self, from: Data(line)) else {
                return problems.append("event is not a JSON object: \(String(decoding: line, as: UTF8.self))")
            }
        }
        do {
            try EvemuReader.read(bytes, file: "fuzz.events", description: nil, onStart: { description in
                replay = EngineReplay(description: description, config: EngineConfig())
            }, onEvent: { type, code, value, time in
                replay?.feed(type: type, code: code, value: value, time: time, onEvent: check)
            })
            replay?.finish(onEvent: check)
            if let engine = replay?.engine { problems += EngineInvariants.check(engine) }
        } catch {
            if !(0...lineCount).contains(error.line) { problems.append("error names line \(error.line) of \(lineCount)") }
            if error.message.isEmpty { problems.append("error without a message") }
        }
        return problems
    }
}

enum ConfigFuzz {
    /// The bytes in this process (coverage is only seen here, so this is what lets
    /// libFuzzer steer into TOML and stylusd's schema code; a crash here is a finding
    /// like any other), then, for one input in 16, the daemon's way too, a parser
    /// child, and both must agree. A child is this instrumented program started
    /// again: about a second each on a busy machine, which held the fuzzer to 66
    /// inputs a minute when every input had one.
    static func run(_ bytes: [UInt8]) -> [String] {
        let lineCount = bytes.reduce(1) { $0 + ($1 == 0x0a ? 1 : 0) }
        let inProcess = Result { () throws(ConfigError) -> EngineConfig in try ConfigParserChild.parse(bytes, file: "fuzz.toml") }
        var problems: [String] = []
        switch inProcess {
        case .success(let config):
            let found = config.problems()
            if !found.isEmpty { problems.append("accepted a configuration with problems: \(found.map(\.message))") }
        case .failure(let error):
            if let line = error.line, !(1...lineCount).contains(line) { problems.append("error names line \(line) of \(lineCount)") }
            if error.message.isEmpty { problems.append("error without a message") }
        }
        let sampled = bytes.reduce(UInt32(2166136261)) { ($0 ^ UInt32($1)) &* 16777619 } % 16 == 0
        guard sampled else { return problems }
        let isolated = Result { () throws(ConfigError) -> EngineConfig in try ConfigParserClient.parse(bytes, file: "fuzz.toml") }
        // The parser names every problem; a child that died or hung is a finding.
        if case .failure(let error) = isolated, error.line == nil, error.message.hasPrefix("the config parser") {
            return problems + ["the parser child failed: \(error.message)"]
        }
        if inProcess != isolated { problems.append("the parser child and this process disagree: \(isolated) vs \(inProcess)") }
        return problems
    }
}

/// What must hold of the engine whatever it was fed.
enum EngineInvariants {
    static func check(_ engine: Engine) -> [String] {
        var problems: [String] = []
        let canvas = engine.canvas
        let points = canvas.strokes.reduce(0) { $0 + $1.points.count }
        if points != canvas.pointCount { problems.append("point count \(canvas.pointCount) but strokes hold \(points)") }
        // Content is ink: an eraser stroke alone is none, and the laser is never recorded.
        if canvas.hasContent != canvas.strokes.contains(where: { $0.style.tool != .eraser }) { problems.append("has_content disagrees with the strokes") }
        if canvas.strokes.contains(where: { $0.style.tool == .laser }) { problems.append("a laser stroke was recorded") }
        if canvas.history.count > Canvas.historyLimit { problems.append("more undo steps than the limit") }
        if canvas.strokes.count > engine.config.canvasLimits.maxStrokes { problems.append("more strokes than the limit") }
        if canvas.pointCount > engine.config.canvasLimits.maxPoints { problems.append("more points than the limit") }
        return problems
    }
}
