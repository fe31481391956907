// SPDX-License-Identifier: MIT
import CLinux
import Testing
@testable import StylusDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The loop reads poll's answers by slot name; each slot must keep its
/// place whether or not its source has a descriptor this turn.
@Suite("the loop's poll set")
struct PollSetTests {
    @Test func everySlotKeepsItsPlaceAndAMissingSourceIsSkipped() {
        var set = PollSet()
        set.watch { slot in slot == .catalog ? nil : Int32(100 + slot.rawValue) }
        #expect(set.entries.count == PollSet.Slot.allCases.count)
        for slot in PollSet.Slot.allCases {
            #expect(set.entries[slot.rawValue].fd == (slot == .catalog ? -1 : Int32(100 + slot.rawValue)))
        }
        #expect(set.commands.isEmpty)
    }

    @Test func aReadyPipeIsReportedInItsSlotOnly() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        var set = PollSet()
        set.watch { $0 == .timer ? ends[0] : nil }
        #expect(set.poll(timeout: 0) == 1)
        for slot in PollSet.Slot.allCases { #expect(set.isReady(slot) == (slot == .timer)) }
    }
}
