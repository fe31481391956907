// SPDX-License-Identifier: MIT
import FoundationEssentials
import StylusConfig
import StylusCore
import StylusInput
#if canImport(Glibc)
import Glibc
#endif

/// Command-line values, which win over the configuration file.
public struct ConfigOverrides: Sendable {
    public var intervalMS: Int?
    public var debounceMS: Int?
    public var transitionMS: Int?
    public var bindings: [(ButtonID, Action)] = []
    /// `--output`: wins over `[output] mode`, at start and at every reload.
    public var output: OutputChoice?
    /// `--passthrough`: every side button's, over `[output.passthrough]`.
    public var passthrough: Passthrough?
    /// `--no-capture` gives false, over `[output] capture_while_canvas_open`.
    public var captureWhileCanvasOpen: Bool?

    public init() {}

    public func apply(to config: inout EngineConfig) {
        // The command line wins over a preset, a switched one too.
        if let intervalMS { config.doublePressIntervalMS = intervalMS; config.setInFile.insert(.interval) }
        if let debounceMS { config.debounceMS = debounceMS; config.setInFile.insert(.debounce) }
        if let transitionMS { config.transitionMS = transitionMS; config.setInFile.insert(.transition) }
        for (button, action) in bindings { config.bind(button, to: action) }
        if let output { config.output.mode = output }
        if let passthrough { config.output.passthrough = SideButton.allCases.map { _ in passthrough } }
        if let captureWhileCanvasOpen { config.output.captureWhileCanvasOpen = captureWhileCanvasOpen }
    }
}

public struct DaemonOptions: Sendable {
    public enum Input: Sendable {
        case libinput(LibinputMonitor.Source)
        /// A recording played at its own pace (times `speed`), instead of libinput.
        case recording(path: String, description: String?, loop: Bool, speed: Double)
    }

    public enum EventPrinting: Sendable { case none, text, json }

    public var input: Input
    public var socketPath: String
    public var statePath: String?
    public var configPath: String?
    /// A missing default config file is fine; a missing --config file is an error.
    public var configPathIsExplicit: Bool
    public var overrides: ConfigOverrides
    public var printing: EventPrinting
    public var environment: [String: String]

    public init(input: Input, socketPath: String, statePath: String?, configPath: String?, configPathIsExplicit: Bool,
                overrides: ConfigOverrides, printing: EventPrinting, environment: [String: String]) {
        self.input = input
        self.socketPath = socketPath
        self.statePath = statePath
        self.configPath = configPath
        self.configPathIsExplicit = configPathIsExplicit
        self.overrides = overrides
        self.printing = printing
        self.environment = environment
    }

    /// The configuration file's bytes; nil when there is none to read (the
    /// default file may be missing, a `--config` file may not).
    public func readConfigBytes() -> Result<[UInt8]?, ConfigError> {
        guard let path = configPath else { return .success(nil) }
        do {
            return .success(try readFile(path, limit: ConfigParserChild.maxBytes))
        } catch {
            if error.errno == .noSuchFileOrDirectory && !configPathIsExplicit { return .success(nil) }
            return .failure(ConfigError(file: path, line: nil, key: nil, message: "cannot read: \(error.errno.reason)"))
        }
    }

    /// What the file parsed to (or the defaults), with the command line on top.
    public func finishConfig(_ parsed: EngineConfig?) -> Result<EngineConfig, ConfigError> {
        var config = parsed ?? EngineConfig()
        overrides.apply(to: &config)
        if let problem = config.problems().first {
            return .failure(ConfigError(file: "command line", line: nil, key: problem.key, message: problem.message))
        }
        return .success(config)
    }

    /// The configuration at start-up, before the loop turns: read, parsed
    /// in a helper process, and finished.
    public func loadConfig() -> Result<EngineConfig, ConfigError> {
        switch readConfigBytes() {
        case .failure(let error): return .failure(error)
        case .success(nil): return finishConfig(nil)
        case .success(let bytes?):
            do { return finishConfig(try ConfigParserClient.parse(bytes, file: configPath!)) } catch { return .failure(error) }
        }
    }
}
