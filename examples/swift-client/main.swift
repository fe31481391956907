// SPDX-License-Identifier: MIT
// docs/CLIENTS.md's example: follow the canvas, print each change, survive daemon restarts.
import StylusClient

let subscription = try StylusSubscription(topics: [.canvas])
for try await update in subscription {
    switch update {
    case .connected(let status), .reconnected(let status):
        print("canvas is \(status.canvas.state), \(status.canvas.strokeCount) strokes")
    case .event(let event) where event.name == "canvas":
        print("canvas is \(event.string("state") ?? "?")")
    case .event(let event):
        print(event.name)
    case .disconnected(let reason):
        print("lost stylusd (\(reason)); reconnecting")
    }
}
