// SPDX-License-Identifier: MIT
import FoundationEssentials
public import StylusConfig
import StylusCore
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

extension ConfigParserChild {
    /// Runs the child; `arguments` are those after the command word (an
    /// optional `--`, then the file's name for messages). Returns the exit status.
    public static func main(arguments: [String]) -> Int32 {
        // A crash must end the child by its signal, which the parent names: no handler of an abort here.
        signal(SIGABRT, SIG_DFL)
        // Started by stylusd or stylusctl, which name a crash in one line of their own:
        // the runtime's crash text, with the paths of whoever built it, would only confuse.
        if getenv(ConfigParserClient.childMarker) != nil {
            let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            if null >= 0 { dup2(null, STDERR_FILENO); close(null) }
        }
        if arguments.first == serveFlag { return serve(ServeOptions(arguments.dropFirst())) }
        let rest = arguments.first == "--" ? Array(arguments.dropFirst()) : arguments
        let file = rest.first ?? "config.toml"

        guard let bytes = try? readToEnd(STDIN_FILENO, stoppingAfter: ConfigParserChild.maxBytes) else { return cannotRead }
        // The parent never sends more than maxBytes; answer() refuses it for anyone who starts the child by hand.
        let (status, reply) = answer(bytes, file: file)
        return writeAll(STDOUT_FILENO, reply) ? status : cannotWrite
    }

    /// `--serve`'s options: `--growth-limit-kib N` (what the daemon asks),
    /// `--answered N` (what an earlier image of this process answered).
    struct ServeOptions {
        var growthLimitKiB = defaultGrowthLimitKiB
        var answeredBefore = 0

        init(_ arguments: ArraySlice<String>) {
            var rest = arguments[...]
            while let flag = rest.popFirst(), let value = rest.popFirst().flatMap({ Int($0) }), value >= 0 {
                if flag == growthLimitFlag { growthLimitKiB = value } else if flag == answeredFlag { answeredBefore = value }
            }
        }
    }

    static func serve(_ options: ServeOptions) -> Int32 {
        var input = LineReader(fd: STDIN_FILENO, limit: headerLineBytes)
        var answered = options.answeredBefore
        // What the child keeps is measured from the first answer on: the first
        // parse sets up what every later one reuses.
        var baseline: Footprint?
        while true {
            let header: [UInt8]
            do throws(LineTooLong) {
                guard let line = try input.line() else { return parsed }   // EOF: the daemon let go
                header = line
            } catch {
                return cannotRead   // no request of the daemon's: nothing after it can be trusted
            }
            let sizes = header.split(separator: 0x20).compactMap { Int(String(decoding: $0, as: UTF8.self)) }
            guard sizes.count == 2, sizes[0] >= 0, sizes[0] <= 4096, sizes[1] >= 0, sizes[1] <= ConfigParserChild.maxBytes,
                  let name = input.bytes(sizes[0]), let bytes = input.bytes(sizes[1]) else { return cannotRead }
            let file = String(decoding: name, as: UTF8.self)
            let (status, reply) = answer(bytes, file: file)
            guard writeAll(STDOUT_FILENO, Array("\(status) \(reply.count)\n".utf8) + reply) else { return cannotWrite }
            answered += 1
            let now = Footprint()
            guard let start = baseline else { baseline = now; continue }
            // The daemon sends a request only after reading the last answer,
            // so nothing of the next one can be lost in this image's buffer.
            if now.grown(since: start) > options.growthLimitKiB * 1024, input.isEmpty {
                startAfresh(answered: answered, growthLimitKiB: options.growthLimitKiB)
                baseline = now   // exec failed (and said why): try again after as much growth again
            }
        }
    }

    /// How much memory the child holds, two ways: what glibc's malloc has
    /// handed out (swap cannot hide it, and it needs no /proc) and the
    /// resident set (which still counts under another allocator, such as a
    /// sanitizer's, where mallinfo2 sees nothing).
    struct Footprint {
        var heapBytes = heapBytesInUse()
        var residentBytes = Footprint.resident()

        func grown(since start: Footprint) -> Int {
            let resident = if let now = residentBytes, let then = start.residentBytes { now - then } else { 0 }
            return max(heapBytes - start.heapBytes, resident)
        }

        /// /proc/self/statm's resident pages in bytes; nil without /proc.
        static func resident() -> Int? {
            guard let text = try? readFile("/proc/self/statm", limit: 4096), !text.isEmpty else { return nil }
            let fields = text.split(separator: 0x20)
            guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
            return pages * sysconf(Int32(_SC_PAGESIZE))
        }
    }

    /// Replaces this image with a fresh one of the same program, keeping the
    /// process and its pipes: /proc/self/exe, or the path the daemon started
    /// it by where /proc is missing. Returns only if exec failed, after saying
    /// so on standard error (the daemon's log); the child then goes on serving.
    static func startAfresh(answered: Int, growthLimitKiB: Int) {
        let all = CommandLine.arguments
        guard let serve = all.firstIndex(of: serveFlag) else { return }
        let argv = Array(all[...serve]) + [growthLimitFlag, String(growthLimitKiB), answeredFlag, String(answered)]
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        execv("/proc/self/exe", &cArguments)
        var reason = String(cString: strerror(errno))
        if let program = all.first, program.hasPrefix("/") {
            execv(program, &cArguments)
            reason += "; \(program): \(String(cString: strerror(errno)))"
        }
        _ = writeAll(STDERR_FILENO, Array("\(command): cannot start afresh after \(answered) answers (/proc/self/exe: \(reason)); going on as it is\n".utf8))
    }

    /// The one-shot child's exit status and output for `bytes`.
    static func answer(_ bytes: [UInt8], file: String) -> (Int32, [UInt8]) {
        do throws(ConfigError) {
            guard bytes.count <= ConfigParserChild.maxBytes else { throw ConfigError.tooBig(bytes.count, file: file) }
            let config = try parse(bytes, file: file)
            guard let encoded = try? JSONEncoder().encode(config) else { return (cannotEncode, []) }
            return (parsed, Array(encoded))
        } catch {
            let fields = error.all.flatMap { problem in
                [problem.line.map(String.init) ?? "", (problem.key ?? "\u{1}").replacingNUL, problem.message.replacingNUL]
            }
            return (refused, Array(fields.joined(separator: "\u{0}").utf8))
        }
    }
}

private extension String {
    /// NUL separates the answer's fields, so none may be inside one.
    var replacingNUL: String { contains("\u{0}") ? replacing("\u{0}", with: "\u{FFFD}") : self }
}
