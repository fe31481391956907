// SPDX-License-Identifier: MIT
import CGlib
import CanvasModel

/// The shell around OverlayState: inputs in with the time, effects run here.
extension CanvasOverlay {
    /// `now` defaults to the monotonic clock; a fade's frames give the frame clock's time.
    func feed(_ input: OverlayInput, now: Milliseconds = CanvasOverlay.monotonicMilliseconds()) {
        run(model.handle(input, now: now))
    }

    private func run(_ effects: [OverlayEffect]) {
        for effect in effects {
            switch effect {
            case .present:
                present()
                refreshIndicator()
            case .hideSurfaces:
                dismissHelp("minimized")
                for w in windows { w.hide() }
            case .startTicks: ensureTick()
            case .stopTicks:
                tickWindow?.stopTicks()
                tickWindow = nil
            case .queueDraw: queueDraw()
            case .sendAck: sendAck()
            case .updateInputRegion:
                for w in windows { w.updateInputRegion() }
                // Sent now: with nothing to draw, GDK would keep the request in its
                // buffer, and a daemon that just died would leave the pen clicking
                // through a canvas still on the screen until the next frame.
                backend.flush()
            case .startHideTimer(let milliseconds):
                after(milliseconds: UInt32(milliseconds)) { [self] in feed(.hideTimerFired) }
            case .waitingForDaemon(let reason):
                // Started before the daemon (a login's autostart, make run): said once, not silent.
                printError("stylus-canvas: waiting for stylusd on \(link.path); the canvas follows it once it runs.\n\(reason)\n")
            case .log(let line): log(line)
            }
        }
    }

    /// The fade runs on the first window's frame clock; with no window yet
    /// (no monitor), `present` starts it once there is one.
    func ensureTick() {
        guard model.isFading, tickWindow == nil, let first = windows.first else { return }
        tickWindow = first
        first.startTicks { [unowned self] now in tick(now) }
    }

    /// Called before each frame (`now` in µs) while a fade runs; false ends the ticks.
    private func tick(_ now: Int64) -> Bool {
        feed(.frame(drawnAlphas: windows.map(\.drawnAlpha)), now: Milliseconds(now) / 1000)
        guard model.isFading else {
            tickWindow = nil
            return false
        }
        return true
    }
}
