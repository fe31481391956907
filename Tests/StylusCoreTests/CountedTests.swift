// SPDX-License-Identifier: MIT
import Testing
import StylusCore

@Suite("counted nouns")
struct CountedTests {
    @Test func oneIsSingularEveryOtherCountPlural() {
        #expect(counted(1, "stroke") == "1 stroke")
        #expect(counted(0, "stroke") == "0 strokes")
        #expect(counted(27, "stroke") == "27 strokes")
        #expect(counted(2, "double press", plural: "double presses") == "2 double presses")
    }
}
