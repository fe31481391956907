// SPDX-License-Identifier: MIT
// make bench: engine throughput and allocations per event over a real recording.
// Run with libMallocInterposerSwift.so preloaded (the Makefile does) so that
// allocations are counted; without it the allocation figures read zero and
// the report says so.
import MallocInterposerSwift
import StylusCore
import StylusInput
#if canImport(Glibc)
import Glibc
#endif

struct RawEvent {
    var type: UInt16, code: UInt16, value: Int32, time: Microseconds
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func fail(_ message: String) -> Never {
    _ = writeAll(STDERR_FILENO, Array("stylus-bench: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "fanout" {
    fanout(socketPath: arguments[2], clients: Int(arguments[3]) ?? 1, seconds: Double(arguments[4]) ?? 8)
    exit(0)
}
if arguments.count == 3, arguments[1] == "requests" {
    requests(count: Int(arguments[2]) ?? 20_000)
    exit(0)
}
guard arguments.count == 2 else { fail("usage: stylus-bench RECORDING.events | stylus-bench fanout SOCKET CLIENTS SECONDS | stylus-bench requests N") }
let path = arguments[1]

// Parse once; the engine figures below exclude file reading and parsing.
let bytes: [UInt8]
do { bytes = try readFile(path) } catch { fail("\(error)") }
var description = DeviceDescription(name: "")
var events: [RawEvent] = []
let parseStart = now()
do {
    try EvemuReader.read(bytes, file: path, description: nil, onStart: { description = $0 },
                         onEvent: { events.append(RawEvent(type: $0, code: $1, value: $2, time: $3)) })
} catch { fail("\(error)") }
let parseSeconds = now() - parseStart
guard let firstTime = events.first?.time, let lastTime = events.last?.time else { fail("\(path) has no events") }
let span = lastTime - firstTime + 1_000_000

/// One replay fed the recording `passes` times, each pass shifted in time so
/// the engine sees one long, continuous session.
func run(_ events: [RawEvent], span: Microseconds, passes: Int, into replay: inout EngineReplay, startPass: Int = 0) -> Int {
    var emitted = 0
    for pass in startPass..<(startPass + passes) {
        let offset = Microseconds(pass) * span
        for e in events {
            replay.feed(type: e.type, code: e.code, value: e.value, time: e.time + offset) { _ in emitted += 1 }
        }
    }
    return emitted
}

// Throughput: best of five runs of 40 passes.
let passes = 40
var best = Double.infinity
for _ in 0..<5 {
    var replay = EngineReplay(description: description, config: EngineConfig())
    let start = now()
    _ = run(events, span: span, passes: passes, into: &replay)
    best = min(best, now() - start)
}
let totalEvents = events.count * passes
let eventsPerSecond = Double(totalEvents) / best

// Allocations: warm up for two passes, then count per frame during a third,
// separating frames that carry only axis data from frames with key changes.
struct AllocationCount {
    var axisFrames = 0, axisEvents = 0, axisAllocations = 0
    var otherFrames = 0, otherEvents = 0, otherAllocations = 0
}

func countAllocations(_ events: [RawEvent], span: Microseconds, description: DeviceDescription, config: EngineConfig) -> AllocationCount {
    var replay = EngineReplay(description: description, config: config)
    _ = run(events, span: span, passes: 2, into: &replay)
    var count = AllocationCount()
    var frame: [RawEvent] = []
    frame.reserveCapacity(64)
    let offset = 2 * span
    MallocInterposerSwift.hook()
    for e in events {
        frame.append(e)
        guard e.type == EV.syn && e.code == SYN.report else { continue }
        let isAxisFrame = !frame.contains { $0.type == EV.key }
        let before = MallocInterposerSwift.getStatistics().mallocCount
        for f in frame {
            replay.feed(type: f.type, code: f.code, value: f.value, time: f.time + offset) { _ in }
        }
        let allocated = MallocInterposerSwift.getStatistics().mallocCount - before
        if isAxisFrame {
            count.axisFrames += 1; count.axisEvents += frame.count; count.axisAllocations += allocated
        } else {
            count.otherFrames += 1; count.otherEvents += frame.count; count.otherAllocations += allocated
        }
        frame.removeAll(keepingCapacity: true)
    }
    MallocInterposerSwift.unhook()
    return count
}

MallocInterposerSwift.initialize()
let drawing = countAllocations(events, span: span, description: description, config: EngineConfig())
var closedConfig = EngineConfig()
closedConfig.sideButtonBindings = [.none, .togglePrecision, .none]
let closed = countAllocations(events, span: span, description: description, config: closedConfig)
let interposed = MallocInterposerSwift.getStatistics().mallocCount > 0

func fixed(_ v: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (v * scale).rounded() / scale
    return String(r)
}

print("""
    stylusd engine benchmark
    recording:              \(path.split(separator: "/").last!) (\(events.count) evdev events, \(bytes.count) bytes)
    evemu parse:            \(fixed(Double(events.count) / parseSeconds / 1e6, 2)) M events/s (one pass, bytes in memory)
    engine throughput:      \(fixed(eventsPerSecond / 1e6, 2)) M evdev events/s (best of 5 runs x \(passes) passes, \(totalEvents) events, one core)
    goal:                   >= 2.00 M evdev events/s -> \(eventsPerSecond >= 2e6 ? "met" : "MISSED")
    """)
func allocationLines(_ label: String, _ c: AllocationCount) -> String {
    """
    \(label)
      axis-only frames:     \(c.axisAllocations) allocations in \(c.axisFrames) frames / \(c.axisEvents) events (\(fixed(Double(c.axisAllocations) / Double(max(c.axisEvents, 1)), 4)) per event)
      frames with keys:     \(c.otherAllocations) allocations in \(c.otherFrames) frames / \(c.otherEvents) events (\(fixed(Double(c.otherAllocations) / Double(max(c.otherEvents, 1)), 4)) per event)
    """
}

if interposed {
    print(allocationLines("allocations, default bindings (canvas opens, strokes recorded), third pass:", drawing))
    print(allocationLines("allocations, canvas never opened (hover, strokes, precision toggles only), third pass:", closed))
    print("goal:                   0 allocations per axis event in steady state -> \(drawing.axisAllocations == 0 && closed.axisAllocations == 0 ? "met" : "MISSED")")
} else {
    print("allocations:            not counted (run with LD_PRELOAD=.build/release/libMallocInterposerSwift.so, as make bench does)")
}
