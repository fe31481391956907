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

struct SocketOption: ParsableArguments {
    @Option(help: "The daemon's socket (default: $STYLUSD_SOCKET, else $XDG_RUNTIME_DIR/stylusd/stylusd.sock).",
            completion: .file())
    var socket: String?

    func connect() throws(StylusClientError) -> StylusConnection { try StylusConnection(socket: socket) }
}

/// Runs `body`, turning failures into a message on stderr and the exit status.
func client(_ body: () throws(StylusClientError) -> Void) throws {
    do {
        try body()
    } catch {
        printError("stylusctl: \(error.message)")
        throw ExitCode(Status.of(error))
    }
}
