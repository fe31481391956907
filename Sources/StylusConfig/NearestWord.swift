// SPDX-License-Identifier: MIT

/// The candidate nearest to a mistyped `word` within two edits (fewer for a
/// short word, where two edits make another word), or nil: what a "did you
/// mean" offers, for stylusctl's words and config.toml's keys alike.
public func nearestWord(_ word: String, among candidates: [String]) -> String? {
    var best: (word: String, distance: Int)?
    for candidate in candidates {
        let d = editDistance(word, candidate)
        if d <= min(2, max(1, word.count / 3)), d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.word
}

/// Insertions, deletions, substitutions and swaps of neighbours needed to turn `a` into `b`.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { rows[i][0] = i }
    for j in 0...b.count { rows[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
            }
        }
    }
    return rows[a.count][b.count]
}
