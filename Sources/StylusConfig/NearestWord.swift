// SPDX-License-Identifier: MIT
import StylusCore

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
