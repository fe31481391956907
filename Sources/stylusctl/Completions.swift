// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

struct Completions: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a shell completion script (bash, zsh or fish).")
    @Argument(help: "bash, zsh or fish", completion: .list(CompletionShell.allCases.map(\.rawValue))) var shell: String

    func run() throws {
        guard let kind = CompletionShell(rawValue: shell) else {
            throw ValidationError("shells are bash, zsh and fish, not \"\(shell)\"")
        }
        emit(Stylusctl.completionScript(for: kind))
    }
}
