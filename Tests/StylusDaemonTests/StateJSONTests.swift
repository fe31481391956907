// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusCore
import Testing
@testable import StylusDaemon

/// The state file written by hand must be what JSONEncoder wrote, byte for
/// byte: a drawing saved by one version loads in the other.
@Suite("State file written by hand")
struct StateJSONTests {
    static func encoderBytes(_ state: PersistedState) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(state))
    }

    @Test func theAwkwardCanvasIsWrittenAsJSONEncoderWritesIt() throws {
        for precision in [true, false] {
            let state = PersistedState(canvas: StateStoreTests.awkwardCanvas(), precisionEnabled: precision)
            let bytes = try #require(state.json())
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: try Self.encoderBytes(state), as: UTF8.self))
        }
        let empty = PersistedState(canvas: Canvas(), precisionEnabled: false)
        #expect(try #require(empty.json()) == (try Self.encoderBytes(empty)))
    }

    @Test func randomDrawingsAreWrittenAsJSONEncoderWritesThemAndReadBackBitForBit() throws {
        var generator = SystemRandomNumberGenerator()
        func value() -> Float {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: Float(Int.random(in: -3...3, using: &generator))            // whole numbers: "1", not "1.0"
            case 1: Float.random(in: 0...1, using: &generator)
            case 2: Float.random(in: 1e-9...1e-3, using: &generator)            // exponent notation
            case 3: Float.random(in: -90...90, using: &generator)               // tilt
            case 4: -0.0
            default: Float(bitPattern: UInt32.random(in: 0...0x7f7f_ffff, using: &generator))   // any finite positive
            }
        }
        let states: [CanvasState] = [.minimized, .opening, .open, .minimizing]
        for _ in 0..<300 {
            let strokes = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                Stroke(device: DeviceID(UInt32.random(in: 0...UInt32.max, using: &generator)),
                       style: StrokeStyle(tool: DrawingTool.allCases.randomElement(using: &generator)!,
                                          color: StrokeColor(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                                                             blue: .random(in: 0...255, using: &generator)),
                                          width: Bool.random(using: &generator) ? Double(Int.random(in: 1...64, using: &generator)) : Double.random(in: 1...64, using: &generator)),
                       points: (0..<Int.random(in: 1...20, using: &generator)).map { _ in
                           StrokePoint(x: value(), y: value(), pressure: value(), tiltX: value(), tiltY: value(),
                                       time: Int64.random(in: Int64.min...Int64.max, using: &generator))
                       })
            }
            let state = PersistedState(canvas: Canvas(state: states.randomElement(using: &generator)!, strokes: strokes),
                                       precisionEnabled: Bool.random(using: &generator))
            let bytes = try #require(state.json())
            let expected = try Self.encoderBytes(state)
            #expect(bytes == expected, "\(String(decoding: bytes, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
            let decoded = try JSONDecoder().decode(PersistedState.self, from: Data(bytes))
            #expect(decoded.strokes.map { $0.x.map(\.bitPattern) } == state.strokes.map { $0.x.map(\.bitPattern) })
            #expect(decoded == state)
        }
    }

    @Test func aValueThatIsNotFiniteIsRefusedAndTheSaveSaysWhy() throws {
        let point = StrokePoint(x: .nan, y: 0, pressure: 0, tiltX: 0, tiltY: 0, time: 1)
        let state = PersistedState(canvas: Canvas(state: .open, strokes: [Stroke(device: DeviceID(1), tool: .pen, points: [point])]),
                                   precisionEnabled: false)
        #expect(state.json() == nil)
        #expect(throws: (any Error).self) { try Self.encoderBytes(state) }
        let store = StateStore(path: "\(StateStoreTests.temporaryDirectory())/state.json")
        #expect { try store.save(state) } throws: { "\($0)".contains("not a finite number") }
    }
}
