// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusSystem

/// Reloads: asked of the parser child, applied when its answers come, in a turn.
extension Daemon {
    func requestReload(_ waiter: ConfigReloader.Waiter) {
        if reloader.isIdle { notifier.send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds())") }
        finishReloads(reloader.request(waiter))
    }

    func finishReloads(_ finished: [(ConfigReloader.Waiter, Result<EngineConfig, ConfigError>)]) {
        guard !finished.isEmpty else { return }
        // Only the newest outcome is applied; earlier ones in the batch read the same or an older file.
        let previousOutput = handler.engine.config.output
        handler.applyReload(finished.last!.1, now: monotonicMicroseconds())
        publish()   // a tool event when show_palette changed
        var outputChanged = false
        if case .success(let config) = finished.last!.1 {
            outputChanged = outputs.reload(previous: previousOutput, config: config)
            actions.prepareDevices(for: config)
        }
        for (waiter, outcome) in finished {
            guard let client = waiter.client else { continue }
            client.awaitsDeferredAnswer = false
            client.send(handler.reloadAnswer(id: waiter.id, outcome), kind: .response)
        }
        if outputChanged { outputs.announce(to: clients) }
        if reloader.isIdle { notifier.send("READY=1") }
    }
}
