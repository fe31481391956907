// docs/CLIENTS.md's example: follow the canvas, print each event, survive daemon restarts.
import StylusClient
import StylusProtocol

let subscription = try StylusSubscription(topics: [.canvas])
for try await update in subscription {
    switch update {
    case .connected(let status), .reconnected(let status):
        print("canvas is \(status.canvas.state), \(status.canvas.strokeCount) strokes")
    case .event(let event) where event.name == "canvas":
        print("canvas is", event.fields["state"].map { "\($0)" } ?? "?")
    case .event(let event):
        print(event.name)
    case .disconnected(let reason):
        print("disconnected (\(reason)); reconnecting")
    }
}
