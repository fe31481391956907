// SPDX-License-Identifier: MIT
import Testing
@testable import StylusProtocol

/// A refused client reads one line in place of `hello`; these were string
/// literals in the daemon, and the bytes must not change.
@Suite("refusals, byte for byte as the daemon wrote them")
struct RefusalTests {
    @Test func anotherUserIsToldWhichUidMayConnect() {
        #expect(String(decoding: Refusal.otherUser(allowed: 1000, peer: 1001).line, as: UTF8.self)
                == "{\"event\":\"refused\",\"reason\":\"only uid 1000 may use this daemon; you are uid 1001\"}\n")
        #expect(String(decoding: Refusal.otherUser(allowed: 1000, peer: nil).line, as: UTF8.self)
                == "{\"event\":\"refused\",\"reason\":\"only uid 1000 may use this daemon; you are an unknown user\"}\n")
    }

    @Test func tooManyConnectionsSaysHowMany() {
        #expect(String(decoding: Refusal.tooManyConnections(50).line, as: UTF8.self)
                == "{\"event\":\"refused\",\"reason\":\"stylusd has too many connections (50); try again later\"}\n")
    }

    @Test func aClientReadsTheRefusalAsAnEventWithItsReason() throws {
        let refusal = Refusal.tooManyConnections(3)
        guard case .event(let event)? = ServerLine.decode(refusal.line) else { throw RefusalFailure() }
        #expect(event.name == "refused")
        #expect(event.string("reason") == refusal.reason)
    }

    struct RefusalFailure: Error {}
}
