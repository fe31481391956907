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

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: CommandName.reload.summary)
    @OptionGroup var socket: SocketOption

    func run() throws {
        do throws(StylusClientError) {
            emit(describeStatus(try socket.connect().send(.reload).typed(StatusResult.self)))
        } catch {
            printError("stylusctl: \(error.message)")
            // The daemon could not use the file: a configuration error (78), as `config check` reports one.
            throw ExitCode(error.kind == .commandFailed(.failed) ? Status.badConfig : Status.of(error))
        }
    }
}
