// SPDX-License-Identifier: MIT
/// stylus-canvas's overlay report when GNOME Shell marks the extension out of
/// date: `missing-outdated-INSTALLED-on-MAJOR` (the installed variant, named by
/// the first GNOME it lists, and the running GNOME's major version). Two
/// variants are installed, and a selector copies the one the installed GNOME
/// loads to GNOME's folder; a copy for another GNOME means it has not run
/// since GNOME changed.
struct OutdatedGnomeExtension: Equatable {
    /// What each variant's metadata.json lists (gnome-extension/build.sh).
    static let variants: [ClosedRange<Int>] = [43...44, 45...48]
    static let prefix = "missing-outdated-"
    /// Where the package puts it; `make install` puts it in PREFIX/lib/stylusd.
    static let selector = "/usr/lib/stylusd/select-gnome-extension"

    let installed: Int
    let shell: Int

    init?(report backend: String) {
        guard backend.hasPrefix(Self.prefix) else { return nil }
        let parts = backend.dropFirst(Self.prefix.count).split(separator: "-")
        guard parts.count == 3, parts[1] == "on", let installed = Int(parts[0]), let shell = Int(parts[2]) else { return nil }
        self.installed = installed
        self.shell = shell
    }

    static func describe(_ range: ClosedRange<Int>?) -> String {
        range.map { "the variant for GNOME \($0.lowerBound)-\($0.upperBound)" } ?? "a variant stylusd does not know"
    }

    /// The overlay line of `stylusctl status`.
    var line: String {
        let copy = Self.describe(Self.variants.first { $0.contains(installed) })
        guard let needed = Self.variants.first(where: { $0.contains(shell) }) else {
            return "overlay    none: GNOME Shell \(shell) marks the extension stylus-canvas@stylusd out of date: the installed copy is \(copy), "
                + "and no variant of this stylusd lists GNOME \(shell) (stylus-canvas's log says how to make GNOME try it anyway)"
        }
        return "overlay    none: GNOME Shell \(shell) marks the extension stylus-canvas@stylusd out of date: the installed copy is \(copy), "
            + "it needs \(Self.describe(needed)); sudo \(Self.selector) (make install: PREFIX/lib/stylusd/), then log out and in"
    }
}
