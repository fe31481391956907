// SPDX-License-Identifier: MIT
// stylus-fuzz TARGET [libFuzzer options] [CORPUS…]: libFuzzer over one of
// the inputs stylusd reads from untrusted hands. Built only by `make fuzz`
// (STYLUSD_FUZZ=1, -sanitize=fuzzer), which links libFuzzer's driver.
import CFuzzDriver
import StylusConfig
import StylusConfigParser
import StylusFuzz

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    let text = "stylus-fuzz: \(message)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(64)
}

// The config target parses in a child, which is this program started again
// (ConfigParserClient.selfExecutable): it must answer as stylusd would. _exit:
// the child is no fuzzer run, so nothing of libFuzzer's or LeakSanitizer's at exit.
if CommandLine.arguments.count >= 2, CommandLine.arguments[1] == ConfigParserChild.command {
    _exit(ConfigParserChild.main(arguments: Array(CommandLine.arguments.dropFirst(2))))
}

let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
guard CommandLine.arguments.count >= 2 else { fail("usage: stylus-fuzz TARGET [libFuzzer options] [CORPUS…]; targets: \(names)") }
guard let chosen = FuzzTarget(rawValue: CommandLine.arguments[1]) else {
    fail("unknown target \"\(CommandLine.arguments[1])\"; targets: \(names)")
}
let target = chosen

// libFuzzer sees the arguments without the target name.
var argc = CommandLine.argc - 1
var argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: Int(argc) + 1)
argv[0] = CommandLine.unsafeArgv[0]
for i in 1..<Int(argc) { argv[i] = CommandLine.unsafeArgv[i + 1] }
argv[Int(argc)] = nil
var argvPointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv

exit(LLVMFuzzerRunDriver(&argc, &argvPointer) { data, size in
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let problems = target.run(bytes)
    if !problems.isEmpty {
        fatalError("stylus-fuzz \(target.rawValue): " + problems.joined(separator: "; "))
    }
    return 0
})
