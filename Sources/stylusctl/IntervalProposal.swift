// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusClient
import StylusConfig
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The interval that tells one user's double presses from their single
/// presses: pure, so the arithmetic is tested without a daemon.
struct IntervalProposal: Equatable {
    enum Outcome: Equatable {
        /// `intervalMS` lies between the two with `marginMS` to the nearer.
        case separated(intervalMS: Int, marginMS: Int)
        /// The slowest double is no quicker than the quickest two singles.
        case overlap
    }
    var slowestDoubleMS: Int
    var quickestSinglesMS: Int
    var outcome: Outcome

    /// Gaps in ms: each double press's press-to-press time, and the times
    /// between consecutive single presses.
    init(doubles: [Int], singles: [Int], range: ClosedRange<Int> = EngineConfig.intervalRangeMS) {
        slowestDoubleMS = doubles.max() ?? 0
        quickestSinglesMS = singles.min() ?? .max
        guard slowestDoubleMS < quickestSinglesMS else {
            outcome = .overlap
            return
        }
        // The midpoint is the value farthest from both; the daemon takes a whole ms within its range.
        let middle = (slowestDoubleMS + min(quickestSinglesMS, 2 * range.upperBound) + 1) / 2
        let interval = min(max(middle, range.lowerBound), range.upperBound)
        guard interval >= slowestDoubleMS, interval < quickestSinglesMS else {
            outcome = .overlap
            return
        }
        outcome = .separated(intervalMS: interval, marginMS: min(interval - slowestDoubleMS, quickestSinglesMS - interval))
    }
}
