// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// `stylusctl calibrate`: measures the user's own double and single presses
/// from the daemon's `button` topic and proposes the interval between them.
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure your double presses and set interval_ms to fit them.",
        discussion: """
            Asks for a few deliberate double presses of a button, then a few single presses, reads them from \
            the running daemon, and proposes the double-press interval that separates the two with the widest \
            margin. On confirmation, interval_ms is written to config.toml (other lines and comments are kept) \
            and the daemon reloads it. The double presses still do what they are bound to meanwhile.
            """)
    @Option(help: "The button to calibrate: BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3 or pad-N.") var button = "BTN_STYLUS"
    @Option(help: "How many double presses to measure.") var doubles = 4
    @Option(help: "How many single presses to measure (their gaps count).") var singles = 5
    @Option(help: "The file to write (default $XDG_CONFIG_HOME/stylusd/config.toml).", completion: .file(extensions: ["toml"]))
    var config: String?
    @OptionGroup var socket: SocketOption

    /// A press this long after the previous one starts a new double press:
    /// no interval can be longer.
    static let longestPairMS = EngineConfig.intervalRangeMS.upperBound

    func validate() throws {
        guard ButtonID(name: button) != nil else {
            throw ValidationError("unknown button \"\(button)\"; use BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3 or pad-0 … pad-\(ButtonID.maxPadButtons - 1)")
        }
        guard (2...20).contains(doubles), (3...20).contains(singles) else {
            throw ValidationError("--doubles is 2-20 and --singles 3-20")
        }
    }

    func run() throws {
        var proposal: IntervalProposal?
        var current = 0
        try client { () throws(StylusClientError) in
            let connection = try socket.connect()
            _ = try connection.subscribe([.button])
            let status = try connection.status()
            current = status.config.intervalMS
            say("Calibrating the double press of \(button) (interval now \(current) ms). Ctrl-C stops.")
            // Said, not left to a silent wait: the presses can only come from that device.
            let device = button.hasPrefix("pad-") ? "pad" : "pen"
            if !status.input.devices.contains(where: { $0.kind == device }) {
                say("No \(device) is connected\(status.input.reason.map { " (\($0))" } ?? ""): this waits until one is and \(button) is pressed.")
            }
            say("")
            say("Step 1 of 2: double-press \(button) \(doubles) times, as you do when you mean it,")
            say("with a pause of a second or more between one double press and the next.")
            var pairs: [Int] = []
            var pending: Int64?
            while pairs.count < doubles {
                let t = try nextPress(connection)
                if let first = pending, t - first <= Int64(Self.longestPairMS) * 1000 {
                    pairs.append(Int((t - first + 500) / 1000))
                    say("  double press \(pairs.count): \(pairs.last!) ms")
                    pending = nil
                } else {
                    pending = t
                }
            }
            say("")
            say("Step 2 of 2: press \(button) \(singles) times, one press at a time, as separate presses")
            say("at your usual pace (not a double press).")
            var gaps: [Int] = []
            var previous: Int64?
            for n in 1...singles {
                let t = try nextPress(connection)
                if let previous {
                    gaps.append(Int((t - previous + 500) / 1000))
                    say("  single press \(n): \(gaps.last!) ms after the one before")
                } else {
                    say("  single press \(n)")
                }
                previous = t
            }
            proposal = IntervalProposal(doubles: pairs, singles: gaps)
        }
        guard let proposal else { return }
        say("")
        say("Your double presses took up to \(proposal.slowestDoubleMS) ms;")
        say("your single presses came at least \(proposal.quickestSinglesMS) ms apart.")
        guard case .separated(let interval, let margin) = proposal.outcome else {
            say("They overlap: no interval counts all your double presses and none of your single")
            say("presses. A double press counts when its second press comes at most interval_ms")
            say("after the first, so an interval of \(proposal.slowestDoubleMS) ms or more, which your slowest double")
            say("press needs, also pairs your single presses \(proposal.quickestSinglesMS) ms apart.")
            say("Nothing was written. Try again with quicker double presses and more time")
            say("between single presses.")
            throw ExitCode(1)
        }
        say("Proposed interval: \(interval) ms (\(margin) ms from each; now \(current) ms).")
        guard let file = config ?? Paths.defaultConfigFile(environment: StylusConnection.environmentForPaths) else {
            printError("stylusctl: no config file: set XDG_CONFIG_HOME or HOME, or give --config FILE")
            throw ExitCode(Status.badConfig)
        }
        say("Write interval_ms = \(interval) to \(file)")
        say("and reload stylusd? [y/N] ", newline: false)
        guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased().filter { $0 != " " && $0 != "\t" }) else {
            say("Nothing was written.")
            return
        }
        try write(interval: interval, to: file)
        try client { () throws(StylusClientError) in
            let status = try socket.connect().reload()
            say("Written; stylusd reloaded it: interval now \(status.config.intervalMS) ms.")
            if status.config.intervalMS != interval {
                say("stylusd does not use it: its command line (--interval-ms) or another")
                say("--config file wins over \(file).")
            }
        }
    }

    /// The next accepted press of the chosen button, by its kernel time (µs).
    private func nextPress(_ connection: StylusConnection) throws(StylusClientError) -> Int64 {
        while let event = try connection.nextEvent() {
            guard event.name == "button", event.string("button") == button, event.string("state") == "pressed",
                  event.fields["bounce"] != .bool(true), let time = event.time else { continue }
            return time
        }
        throw StylusClientError(.notRunning, "stylusd closed the connection (it stopped)")
    }

    /// The file with only interval_ms changed, checked as the daemon will parse it, then put in place whole.
    private func write(interval: Int, to given: String) throws {
        // A config.toml linked from a dotfiles folder stays a link: the file it points to changes.
        var file = given
        if let resolved = realpath(given, nil) {
            file = String(cString: resolved)
            free(resolved)
        }
        var mode: mode_t = 0o644
        var info = stat()
        if stat(file, &info) == 0 { mode = info.st_mode & 0o7777 }
        var text = ""
        do {
            let bytes = try readConfigFile(file)
            text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try ConfigParserClient.parse(bytes, file: file)
            } catch {
                printError("stylusctl: \(error)\nstylusctl: fix the file first; nothing was written")
                throw ExitCode(Status.badConfig)
            }
        } catch let error as SystemCallError {
            guard error.errno == .noSuchFileOrDirectory else {
                printError("stylusctl: \(file): \(error.errno.reason)")
                throw ExitCode(Status.badConfig)
            }
        }
        let changed = ConfigEdit.setting("interval_ms", to: String(interval), in: text, note: "Set by stylusctl calibrate: the longest press-to-press time of a double press, in ms.")
        do {
            _ = try ConfigParserClient.parse(Array(changed.utf8), file: file)
        } catch {
            printError("stylusctl: the changed file would not load (\(error)); nothing was written")
            throw ExitCode(Status.badConfig)
        }
        let directory = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
        if !directory.isEmpty {
            do { try createDirectories(directory) } catch {
                printError("stylusctl: \(error)")
                throw ExitCode(1)
            }
        }
        do {
            // The mode the file had, whatever the umask.
            try replaceFileAtomically(file, with: Array(changed.utf8), temporary: file + ".calibrate.tmp", mode: mode)
        } catch {
            printError("stylusctl: \(error); \(file) is as it was")
            throw ExitCode(1)
        }
    }
}

private func say(_ text: String, newline: Bool = true) { emit(Array((newline ? text + "\n" : text).utf8)) }

extension StylusConnection {
    /// The variables Paths reads to find config.toml.
    static var environmentForPaths: [String: String] {
        ["XDG_CONFIG_HOME", "HOME"].reduce(into: [:]) { result, name in
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
    }
}
