// SPDX-License-Identifier: MIT
import StylusProtocol

/// Which copy of the GNOME Shell extension runs, as its overlay report says:
/// the variant (named by the first GNOME it lists) and the GNOME Shell that
/// loaded it. Two are installed and one is selected for the installed GNOME,
/// so after an upgrade "which one runs" is the first question.
enum GnomeExtensionVariant {
    /// " (the variant for GNOME 45-48, loaded by GNOME Shell 48.7)", or less of it; empty
    /// for an extension too old to say.
    static func described(_ report: OverlayReport) -> String {
        let variant = report.variant.flatMap(Int.init).map { first in
            OutdatedGnomeExtension.describe(OutdatedGnomeExtension.variants.first { $0.contains(first) })
        }
        let shell = report.shell.map { "GNOME Shell \($0)" }
        switch (variant, shell) {
        case let (v?, s?): return " (\(v), loaded by \(s))"
        case let (v?, nil): return " (\(v))"
        case let (nil, s?): return " (loaded by \(s))"
        case (nil, nil): return ""
        }
    }
}
