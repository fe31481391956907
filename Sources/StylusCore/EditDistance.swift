// SPDX-License-Identifier: MIT
/// Insertions, deletions, substitutions and swaps of two neighbours (a common
/// slip, so one edit) that turn `a` into `b`: how far a mistyped word is from
/// a known one, for every "did you mean" (colour names, config keys, stylusctl's words).
public func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // Three rows of the table: a swap looks two rows back.
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, before[j - 2] + 1) }
            current[j] = best
        }
        (before, previous) = (previous, current)
    }
    return previous[b.count]
}

/// The same, over the characters of two strings.
public func editDistance(_ a: String, _ b: String) -> Int { editDistance(Array(a), Array(b)) }
