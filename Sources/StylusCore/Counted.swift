// SPDX-License-Identifier: MIT
/// "1 stroke", "2 strokes", "0 strokes": a count with its noun in the right
/// number, for every readable line the programs print.
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
