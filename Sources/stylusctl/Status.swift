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

/// Exit statuses, so scripts can tell what went wrong.
enum Status {
    static let usage: Int32 = 64           // EX_USAGE, as swift-argument-parser's own usage errors
    static let notRunning: Int32 = 69      // EX_UNAVAILABLE
    static let refused: Int32 = 3
    static let protocolError: Int32 = 76   // EX_PROTOCOL
    static let badConfig: Int32 = 78       // EX_CONFIG

    static func of(_ error: StylusClientError) -> Int32 {
        switch error.kind {
        case .notRunning, .cancelled: notRunning
        case .connectionRefused, .commandFailed: refused
        case .protocolViolation: protocolError
        }
    }
}
