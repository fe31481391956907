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

@main
struct Stylusd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stylusd",
        abstract: "Pen side-button double presses and pressure precision for Linux tablets.",
        usage: "stylusd [run] [<options>]\n       stylusd probe [--json]\n       stylusd replay <file> [<options>]",
        discussion: """
            With no subcommand, runs the daemon in the foreground: pen input from libinput, \
            events on standard output. `stylusd probe` lists the input hardware; \
            `stylusd replay` runs the engine offline over an evemu recording.
            """,
        version: StylusVersion.current,
        subcommands: [Run.self, Probe.self, Replay.self],
        defaultSubcommand: Run.self
    )

    /// `stylusd --help` (and `-h`, `help`) shows the daemon's options too:
    /// they are the default subcommand's, which ArgumentParser's root help leaves out.
    /// The completion scripts complete them too (`completionScriptWithDefaultSubcommand`).
    static func main() {
        // config.toml is parsed by a program beside this one: stylusd links no TOML parser.
        ConfigParserClient.defaultExecutable = ConfigParserClient.parserBesideThisProgram
        let arguments = Array(CommandLine.arguments.dropFirst())
        if ["--help", "-h", "help"].contains(arguments.first), arguments.count == 1 {
            _ = writeAll(STDOUT_FILENO, Array(fullHelp().utf8))
            return
        }
        if let shell = completionShellRequested(arguments) {
            _ = writeAll(STDOUT_FILENO, Array(completionScriptWithDefaultSubcommand(for: shell).utf8))
            return
        }
        main(arguments)
    }

    /// The shell of `--generate-completion-script SHELL` (or `=SHELL`) given alone; nil for any other command line.
    static func completionShellRequested(_ arguments: [String]) -> CompletionShell? {
        let words = arguments.count == 1 ? arguments[0].split(separator: "=", maxSplits: 1).map(String.init) : arguments
        guard words.count == 2, words[0] == "--generate-completion-script" else { return nil }
        return CompletionShell(rawValue: words[1])
    }

    /// ArgumentParser's completion scripts know the daemon's options only
    /// after `run`, but stylusd with no subcommand is the daemon too. Each
    /// script is changed so that, until a subcommand is typed, it completes
    /// as if `run` had been, and the first word also offers the subcommands:
    /// bash gets a wrapper function registered in place of the generated one;
    /// zsh and fish get one generated function renamed and a wrapper of ours
    /// under its old name (fish also a new test for when the subcommands are
    /// offered). Where ArgumentParser's script no longer holds the text we
    /// rename (a newer ArgumentParser), the script is given as generated and stderr says so: the
    /// daemon's options then complete only after `run`.
    static func completionScriptWithDefaultSubcommand(for shell: CompletionShell) -> String {
        let script = completionScript(for: shell)
        let replacements: [(old: String, new: String)]
        switch shell {
        case .bash: return script + bashDefaultSubcommand
        case .zsh: replacements = [("\n_stylusd() {\n", zshDefaultSubcommand + "\n_stylusd_as_typed() {\n")]
        case .fish: replacements = [
            ("\nfunction __stylusd_tokens\n", fishDefaultSubcommand + "\nfunction __stylusd_tokens_as_typed\n"),
            ("'__stylusd_should_offer_completions_for_positional \"stylusd\" -eq 1'", "'__stylusd_at_first_word'"),
        ]
        default: return script
        }
        var changed = script
        for (old, new) in replacements {
            guard changed.contains(old) else {
                let anchor = old.filter { $0 != "\n" }
                _ = writeAll(STDERR_FILENO, Array("stylusd: the \(shell.rawValue) completion script has no \"\(anchor)\" to change; the daemon's options complete only after `run`\n".utf8))
                return script
            }
            changed = changed.replacing(old, with: new)
        }
        return changed
    }

    /// The words after which the wrappers below leave completion to the generated scripts.
    static let subcommandNames = configuration.subcommands.map { $0._commandName } + ["help"]

    /// zsh: `words` and `CURRENT` are what the generated `_stylusd` completes
    /// from; inserting `run` into them is typing it.
    static let zshDefaultSubcommand = #"""

        # stylusd with no subcommand runs the daemon: complete its options (run's) there too.
        _stylusd() {
            emulate -L zsh
            local word
            for word in "${(@)words[2,CURRENT-1]}"; do
                case "${word}" in
                \#(subcommandNames.joined(separator: "|"))) _stylusd_as_typed "$@"; return ;;
                esac
            done
            local -i ret=1
            if (( CURRENT == 2 )) && [[ "${PREFIX}" != -* ]]; then
                # The subcommands; _arguments rewrites words and CURRENT, so they are put back after.
                local -a typed=("${words[@]}")
                _stylusd_as_typed "$@" && ret=0
                words=("${typed[@]}")
                CURRENT=2
            fi
            words=("${words[1]}" run "${(@)words[2,-1]}")
            (( CURRENT++ ))
            _stylusd_as_typed "$@" && ret=0
            return "${ret}"
        }

        """#

    /// fish: every generated condition parses the command line from
    /// `__stylusd_tokens`; inserting `run` into what it returns is typing it.
    static let fishDefaultSubcommand = #"""

        # stylusd with no subcommand runs the daemon: complete its options (run's) there too.
        function __stylusd_tokens
            if contains -- -t $argv
                __stylusd_tokens_as_typed $argv
                return
            end
            set -l tokens (__stylusd_tokens_as_typed $argv)
            for word in (__stylusd_tokens_as_typed -pc)[2..]
                if contains -- $word \#(subcommandNames.joined(separator: " "))
                    string join \n -- $tokens
                    return
                end
            end
            string join \n -- $tokens[1] run $tokens[2..]
        end

        # The subcommands are offered as the first word, where no subcommand is typed yet.
        function __stylusd_at_first_word
            test (count (__stylusd_tokens_as_typed -pc)) -eq 1
        end

        """#

    /// bash: the wrapper is registered in place of the generated function
    /// and calls it with `run` inserted into COMP_WORDS and COMP_LINE.
    static let bashDefaultSubcommand = #"""

        # stylusd with no subcommand runs the daemon: complete its options (run's) there too.
        _stylusd_default() {
            local -i i
            for ((i = 1; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                \#(subcommandNames.joined(separator: "|"))) _stylusd "$@"; return ;;
                esac
            done
            local -a subcommands=()
            if ((COMP_CWORD == 1)); then
                _stylusd "$@"
                subcommands=("${COMPREPLY[@]}")
                COMPREPLY=()
            fi
            local -a words=("${COMP_WORDS[@]}")
            local line="${COMP_LINE}"
            COMP_WORDS=("${words[0]}" run "${words[@]:1}")
            COMP_CWORD=$((COMP_CWORD + 1))
            COMP_LINE="${words[0]} run${line#"${words[0]}"}"
            COMP_POINT=$((COMP_POINT + 4))
            _stylusd "$1" "$2" "${COMP_WORDS[COMP_CWORD - 1]}"
            COMPREPLY=("${subcommands[@]}" "${COMPREPLY[@]}")
        }

        complete -o filenames -F _stylusd_default stylusd

        """#

    /// The root help, then the daemon's usage and options (`stylusd run`'s help without its overview).
    static func fullHelp(columns: Int? = nil) -> String {
        var text = helpMessage(columns: columns)
        let run = helpMessage(for: Run.self, columns: columns)
        if let usage = run.firstRange(of: "USAGE: ") {
            if !text.hasSuffix("\n") { text += "\n" }
            text += "\nTHE DAEMON (stylusd with no subcommand, or stylusd run):\n\n" + run[usage.lowerBound...]
        }
        return text.hasSuffix("\n") ? text : text + "\n"
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daemon in the foreground (the default).",
        usage: "stylusd [run] [<options>]",
        discussion: """
            Without --device, follows every tablet on the seat through libinput's udev backend, \
            hotplug included. With no pen present it runs button-only and says why. \
            Clients connect to the socket ($XDG_RUNTIME_DIR/stylusd/stylusd.sock unless --socket \
            or STYLUSD_SOCKET says otherwise). SIGHUP re-reads the configuration; SIGTERM and \
            SIGINT stop it cleanly.
            """
    )

    @Option(help: "The udev seat to follow.", completion: .list(["seat0"]))
    var seat = "seat0"

    @Option(name: .customLong("device"), help: "Use this event node through libinput's path backend instead of the seat (repeatable).",
            completion: .shellCommand("ls -1 /dev/input/event* 2>/dev/null"))
    var devices: [String] = []

    @Option(help: "Play this evemu recording at its recorded pace instead of reading libinput.", completion: .file(extensions: ["events"]))
    var replay: String?

    @Option(help: "Device description for a --replay recording without a header.", completion: .file(extensions: ["desc"]))
    var desc: String?

    @Flag(help: "With --replay: start the recording again when it ends.")
    var loop = false

    @Option(help: "With --replay: play this many times faster than recorded (default 1).")
    var speed: Double?

    @Option(help: "The socket to listen on.", completion: .file())
    var socket: String?

    @Option(help: "The configuration file (default $XDG_CONFIG_HOME/stylusd/config.toml).", completion: .file(extensions: ["toml"]))
    var config: String?

    @Option(name: .customLong("state-file"), help: "Where the canvas is kept across restarts (default $XDG_STATE_HOME/stylusd/state.json).",
            completion: .file(extensions: ["json"]))
    var stateFile: String?

    @OptionGroup var engine: EngineOptions

    @Option(help: ArgumentHelp("How pen input reaches the desktop: observe (the desktop reads the pen), filter (stylusd grabs it and writes a virtual pen) or auto (filter where /dev/uinput is writable, else observe). Default: [output] mode in the configuration file, else auto.", valueName: "mode"),
            completion: .list(OutputChoice.allCases.map(\.rawValue)))
    var output: String?

    @Option(help: ArgumentHelp("Filter mode: what reaches the desktop of every bound side button: defer, immediate or never. Default: [output.passthrough] in the configuration file, else defer.", valueName: "mode"),
            completion: .list(Passthrough.allCases.map(\.rawValue)))
    var passthrough: String?

    @Flag(name: .customLong("no-capture"), help: "Filter mode: keep the virtual pen in proximity while the canvas is open (as [output] capture_while_canvas_open = false).")
    var noCapture = false

    @Flag(help: "Print events on standard output as NDJSON (the socket's format). Without it, readable lines are printed only to a terminal.")
    var json = false

    func validate() throws {
        if let output, OutputChoice(rawValue: output) == nil { throw ValidationError("--output \(output): use \(OutputChoice.spelledOut)") }
        if let passthrough, Passthrough(rawValue: passthrough) == nil { throw ValidationError("--passthrough \(passthrough): use \(Passthrough.spelledOut)") }
        if let speed, !(speed > 0 && speed <= 1000) { throw ValidationError("--speed must be above 0 and at most 1000") }
        if replay != nil, !devices.isEmpty { throw ValidationError("--replay and --device exclude each other") }
        if replay == nil {
            let given = [loop ? "--loop" : nil, speed != nil ? "--speed" : nil, desc != nil ? "--desc" : nil].compactMap { $0 }
            if !given.isEmpty {
                throw ValidationError("\(given.joined(separator: " and ")) \(given.count == 1 ? "applies" : "apply") only with --replay FILE")
            }
        }
    }

    func run() throws {
        do {
            try start()
        } catch let error as StartError {
            _ = writeAll(STDERR_FILENO, Array("stylusd: \(error)\n".utf8))
            throw ExitCode(64)   // EX_USAGE, without the usage: it would not help
        }
    }

    private func start() throws {
        let environment = ProcessEnvironment.current
        var resolver = RelativePaths()
        let socketPath: String
        switch SocketLocation.resolve(explicit: socket, environment: environment) {
        case .success(let path): socketPath = try resolver.absolute(path, named: socket != nil ? "--socket" : "STYLUSD_SOCKET")
        case .failure(let error): throw StartError(error.description)
        }
        if replay == nil, devices.isEmpty, let warning = Seats.warning(for: seat, known: Seats.known()) {
            _ = writeAll(STDERR_FILENO, Array("stylusd: \(warning)\n".utf8))
        }
        let input: DaemonOptions.Input = if let replay {
            .recording(path: replay, description: desc, loop: loop, speed: speed ?? 1)
        } else {
            devices.isEmpty ? .libinput(.seat(seat)) : .libinput(.paths(devices))
        }
        let configPath = try config.map { try resolver.absolute($0, named: "--config") }
            ?? Paths.defaultConfigFile(environment: environment)
        let statePath = try stateFile.map { try resolver.absolute($0, named: "--state-file") }
            ?? Paths.defaultStateFile(environment: environment)
        resolver.report()
        var overrides = try engine.overrides()
        overrides.output = output.flatMap(OutputChoice.init(rawValue:))
        overrides.passthrough = passthrough.flatMap(Passthrough.init(rawValue:))
        overrides.captureWhileCanvasOpen = noCapture ? false : nil
        let options = DaemonOptions(
            input: input, socketPath: socketPath,
            statePath: statePath,
            configPath: configPath, configPathIsExplicit: config != nil,
            overrides: overrides,
            printing: json ? .json : (isatty(STDOUT_FILENO) != 0 ? .text : .none),
            environment: environment)
        let status = Daemon(options: options).run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// A reason the daemon cannot start that the usage text would not help
/// with: `Run.main` prints only "stylusd: reason" and exits 64 (EX_USAGE).
struct StartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The daemon's own files given as relative paths mean the working
/// directory at start, made absolute once: nothing later (a reload, the
/// state saved at exit) depends on where the process stands then.
struct RelativePaths {
    private var directory: Result<String, Paths.WorkingDirectoryError>?
    private var resolved: [String] = []

    mutating func absolute(_ path: String, named option: String) throws -> String {
        guard !path.isEmpty else { throw StartError("\(option) is empty; give a file name") }
        if path.hasPrefix("/") { return path }
        if directory == nil { directory = Paths.workingDirectory() }
        switch directory! {
        case .success(let cwd):
            let absolute = Paths.absolute(path, against: cwd)
            resolved.append("\(option) \(path) is \(absolute)")
            return absolute
        case .failure(let error):
            throw StartError("\(option) \(path) is a relative path and \(error); give an absolute path")
        }
    }

    /// One log line naming each relative path and what it was taken to mean.
    func report() {
        guard !resolved.isEmpty else { return }
        _ = writeAll(STDERR_FILENO, Array("stylusd: relative paths are taken from the working directory: \(resolved.joined(separator: ", "))\n".utf8))
    }
}

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every /dev/input/event* node and what stylusd can use of it."
    )

    @Flag(help: "One JSON document instead of readable lines.")
    var json = false

    func run() throws {
        let report = StylusInput.Probe.run()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(report)
            _ = writeAll(STDOUT_FILENO, Array(data) + [0x0a])
        } else {
            var text = report.nodes.map(\.text).joined(separator: "\n")
            if !text.isEmpty { text += "\n" }
            if let reason = report.buttonOnlyReason {
                text += "no pen: \(reason); stylusd would run button-only\n"
            } else {
                text += "\(report.pens.count) pen\(report.pens.count == 1 ? "" : "s") usable\n"
            }
            _ = writeAll(STDOUT_FILENO, Array(text.utf8))
        }
    }
}

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

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the engine over an evemu recording and print its events.",
        discussion: """
            Uses the recording's own kernel timestamps, so the output is the same on every run. \
            Pending timers (a canvas transition) fire after the last event. \
            A double press bound to preset:, exec:, key: or click: is reported as ignored, with the reason: \
            a replay performs none of them (a running daemon does). \
            The summary goes to standard error.
            """
    )

    @Argument(help: "An evemu recording (evemu-record output).", completion: .file(extensions: ["events"]))
    var file: String

    @Option(help: "Device description for a recording without a header (an evemu .desc file).", completion: .file(extensions: ["desc"]))
    var desc: String?

    @OptionGroup var engine: EngineOptions

    @Flag(help: "One JSON object per line, as the socket's subscriptions send them.")
    var json = false

    @Option(name: .customLong("output-frames"), help: ArgumentHelp(
        "Also write the evdev frames filter mode would give the pen's virtual clone to this file, as evemu E: lines ('-' = standard output instead of the events).",
        valueName: "file"))
    var outputFrames: String?

    @Option(help: ArgumentHelp("With --output-frames: what reaches the desktop of a bound side button: defer, immediate or never (default defer).", valueName: "mode"))
    var passthrough: String?

    @Flag(name: .customLong("no-capture"), help: "With --output-frames: keep the clone in proximity while the canvas is open.")
    var noCapture = false

    func run() throws {
        if outputFrames != nil { return try runFrames() }
        let config = try engine.engineConfig()
        var out = [UInt8]()
        out.reserveCapacity(1 << 16)
        let json = self.json
        func flushOut() {
            if !out.isEmpty, !writeAll(STDOUT_FILENO, out) {
                // A closed pipe (`| head`) is not an error worth a message.
                Stylusd.exit(withError: ExitCode(errno == EPIPE ? 0 : 1))
            }
            out.removeAll(keepingCapacity: true)
        }
        let summary: RecordingPlayer.Summary
        do {
            summary = try RecordingPlayer.play(file: file, descriptionFile: desc, config: config) { event in
                if json {
                    out = event.jsonLine(into: out)
                } else {
                    out.append(contentsOf: event.text.utf8)
                    out.append(0x0a)
                }
                if out.count > 60_000 { flushOut() }
            }
        } catch {
            flushOut()
            var message = Array("stylusd replay: \(error)\n".utf8)
            _ = writeAll(STDERR_FILENO, message)
            message.removeAll()
            throw ExitCode(65)   // EX_DATAERR
        }
        flushOut()
        let line = "\(file): \(counted(summary.evdevEvents, "evdev event")), \(counted(summary.doublePresses, "double press", plural: "double presses")), canvas \(summary.finalCanvas.rawValue) with \(counted(summary.strokes, "stroke"))\n"
        _ = writeAll(STDERR_FILENO, Array(line.utf8))
    }

    private func runFrames() throws {
        let config = try engine.engineConfig()
        var filter = FilterConfig()
        if let passthrough {
            guard let mode = Passthrough(rawValue: passthrough) else {
                throw ValidationError("--passthrough \(passthrough): use defer, immediate or never")
            }
            filter.passthrough = [mode, mode, mode]
        }
        filter.captureWhileCanvasOpen = !noCapture
        let path = outputFrames!
        let framesToStdout = path == "-"
        let fd: Int32 = framesToStdout ? STDOUT_FILENO : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ValidationError("--output-frames \(path): \(String(cString: strerror(errno)))") }
        defer { if !framesToStdout { _ = Glibc.close(fd) } }
        var frames = [UInt8]()
        var events = [UInt8]()
        let json = self.json
        func flush(force: Bool = false) {
            if force || frames.count > 60_000 {
                if !frames.isEmpty, !writeAll(fd, frames) { Stylusd.exit(withError: ExitCode(errno == EPIPE ? 0 : 1)) }
                frames.removeAll(keepingCapacity: true)
            }
            if force || events.count > 60_000 {
                if !events.isEmpty, !writeAll(STDOUT_FILENO, events) { Stylusd.exit(withError: ExitCode(errno == EPIPE ? 0 : 1)) }
                events.removeAll(keepingCapacity: true)
            }
        }
        var frameCount = 0
        let summary: RecordingPlayer.Summary
        do {
            summary = try RecordingPlayer.playFrames(file: file, descriptionFile: desc, config: config, filter: filter, onEvent: { event in
                guard !framesToStdout else { return }
                if json { events = event.jsonLine(into: events) } else { events.append(contentsOf: event.text.utf8); events.append(0x0a) }
                flush()
            }, onFrameEvent: { e in
                frames.append(contentsOf: RecordingPlayer.evemuLine(e).utf8)
                frames.append(0x0a)
                if e.isReport { frameCount += 1 }
                flush()
            })
        } catch {
            flush(force: true)
            _ = writeAll(STDERR_FILENO, Array("stylusd replay: \(error)\n".utf8))
            throw ExitCode(65)
        }
        flush(force: true)
        let line = "\(file): \(summary.evdevEvents) evdev events, \(summary.doublePresses) double presses, \(frameCount) clone frames, canvas \(summary.finalCanvas.rawValue) with \(summary.strokes) strokes\n"
        _ = writeAll(STDERR_FILENO, Array(line.utf8))
    }
}
