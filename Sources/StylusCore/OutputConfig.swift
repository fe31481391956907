// SPDX-License-Identifier: MIT
/// Which output the user asks for: `--output`, `[output] mode`, or the
/// `output` command. `auto` is filter where /dev/uinput can be opened for
/// writing, observe elsewhere.
public enum OutputChoice: String, Sendable, CaseIterable, Codable {
    case observe, filter, auto

    /// "observe, filter or auto", as help and errors list them.
    public static var spelledOut: String { "observe, filter or auto" }
}

/// `[output]` in config.toml: how pen input reaches the desktop, and what
/// filter mode lets through. It travels with `EngineConfig` (the file's
/// parser child sends both at once), but the engine never reads it: the
/// shell picks the output from `mode` and hands `filter` to it.
public struct OutputConfig: Equatable, Sendable, Codable {
    public var mode: OutputChoice = .auto
    /// Per side button (`SideButton.rawValue`). Unbound buttons pass at once whatever this says.
    public var passthrough: [Passthrough] = [.deferred, .deferred, .deferred]
    public var captureWhileCanvasOpen = true

    public init() {}

    /// What `UinputOutput` and `CloneFilter` are configured with.
    public var filter: FilterConfig {
        var f = FilterConfig()
        f.passthrough = passthrough
        f.captureWhileCanvasOpen = captureWhileCanvasOpen
        return f
    }
}

extension Passthrough {
    /// "defer, immediate or never", as help and errors list them.
    public static var spelledOut: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
