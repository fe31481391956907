// SPDX-License-Identifier: MIT
import CanvasModel
import StylusCore

extension EngineConfig {
    /// The canvas's key table as the `key` command acts by it (CommandHandler.canvasKeyAction):
    /// the spec's defaults in their order, `[canvas.keys]` over them, then the keys only
    /// `[canvas.keys]` binds, by name; a key bound to `none` is left out. `status` reports it,
    /// so that the canvas's help shows rebound keys too.
    var canvasKeyTable: [(key: String, action: String)] {
        let defaults = CanvasSpec.keys.map(\.key)
        let table = CanvasSpec.keys.map { ($0.key, canvasKeys[$0.key]?.rawValue ?? $0.action) }
            + canvasKeys.keys.filter { !defaults.contains($0) }.sorted().map { ($0, canvasKeys[$0]!.rawValue) }
        return table.filter { $0.1 != Action.none.rawValue }.map { (key: $0.0, action: $0.1) }
    }
}
