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
///
/// It stays in StylusCore because `EngineConfig.output` holds it (and with
/// it `Passthrough`); what the filter makes of it (`FilterConfig`,
/// `OutputConfig.filter`, `CloneFilter`) lives in StylusOutput.
public struct OutputConfig: Equatable, Sendable, Codable {
    public var mode: OutputChoice = .auto
    /// Per side button (`SideButton.rawValue`). Unbound buttons pass at once whatever this says.
    public var passthrough: [Passthrough] = [.deferred, .deferred, .deferred]
    public var captureWhileCanvasOpen = true

    public init() {}
}

/// What reaches the desktop of a side button whose double press is bound.
public enum Passthrough: String, Sendable, CaseIterable, Codable {
    /// The first press is held back until it cannot become a double press
    /// (the default for bound buttons).
    case deferred = "defer"
    /// Every press and release passes at once; a double press only adds its action.
    case immediate
    /// Nothing of the button reaches the desktop.
    case never
}

extension Passthrough {
    /// "defer, immediate or never", as help and errors list them.
    public static var spelledOut: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
