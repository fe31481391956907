// SPDX-License-Identifier: MIT
import StylusCore
import StylusInput

enum Fixtures {
    /// Tests/Fixtures/recordings, found from this file's path so that tests
    /// run from any working directory.
    static let recordings: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Fixtures/recordings"
    }()

    static func path(_ name: String) -> String { "\(recordings)/\(name)" }

    static func replay(_ name: String, desc: String? = nil, config: EngineConfig = EngineConfig()) throws -> [EngineEvent] {
        var events: [EngineEvent] = []
        _ = try RecordingPlayer.play(file: path(name), descriptionFile: desc.map(path), config: config) { events.append($0) }
        return events
    }

    static func lines(_ text: String) -> [UInt8] { Array(text.utf8) }
}
