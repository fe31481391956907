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
