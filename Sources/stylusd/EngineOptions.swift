// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusConfig
import StylusCore
import StylusDaemon
import StylusInput
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Options shared by every command that runs the engine. Unset ones come
/// from the configuration file (the daemon) or the defaults (replay).
struct EngineOptions: ParsableArguments {
    @Option(name: .customLong("interval-ms"), help: "Longest press-to-press gap of a double press, 150-1000 (default 500).")
    var intervalMS: Int?

    @Option(name: .customLong("debounce-ms"), help: "A press this soon after a release is contact bounce, 0-100 (default 25).")
    var debounceMS: Int?

    @Option(name: .customLong("transition-ms"), help: "How long the canvas takes to open or minimize without an ack, 0-5000 (default 250).")
    var transitionMS: Int?

    @Option(name: .customLong("bind"), help: ArgumentHelp(
        "Bind a button's double press to an action: BUTTON=ACTION (repeatable).",
        discussion: "BUTTON is BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3 or pad-N; ACTION is \(Action.spelledOut), e.g. "
            + Action.Form.allCases.filter { $0.argument != nil }.map { "BTN_STYLUS2=\"\($0.example)\"" }.joined(separator: ", ") + ".",
        valueName: "button=action"), completion: .list(bindingWords))
    var bindings: [String] = []

    /// What `--bind` completes to: every side button with every action, the
    /// values of those that take one, and `exec:`/`key:` to type on (pad-N=ACTION is typed).
    static let bindingWords = SideButton.allCases.flatMap { button in
        Action.Form.allCases.flatMap(\.completions).map { "\(button.evdevName)=\($0)" }
    }

    func overrides() throws -> ConfigOverrides {
        var o = ConfigOverrides()
        o.intervalMS = intervalMS
        o.debounceMS = debounceMS
        o.transitionMS = transitionMS
        for binding in bindings {
            let parts = binding.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let button = ButtonID(name: parts[0]) else {
                throw ValidationError("--bind \(binding): expected BUTTON=ACTION with BUTTON one of BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3, pad-0 … pad-63")
            }
            switch Action.parse(parts[1]) {
            case .success(let action): o.bindings.append((button, action))
            case .failure(let error): throw ValidationError("--bind \(binding): \(error)")
            }
        }
        var config = EngineConfig()
        o.apply(to: &config)
        let problems = config.problems()
        guard problems.isEmpty else {
            let flag: [String: String] = ["interval_ms": "--interval-ms", "debounce_ms": "--debounce-ms", "transition_ms": "--transition-ms"]
            throw ValidationError(problems.map { "\(flag[$0.key] ?? $0.key): \($0.message)" }.joined(separator: "\n"))
        }
        return o
    }

    /// The defaults with this command line on top (no configuration file).
    func engineConfig() throws -> EngineConfig {
        var config = EngineConfig()
        try overrides().apply(to: &config)
        return config
    }
}
