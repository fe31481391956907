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

/// A reason the daemon cannot start that the usage text would not help
/// with: `Run.main` prints only "stylusd: reason" and exits 64 (EX_USAGE).
struct StartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
