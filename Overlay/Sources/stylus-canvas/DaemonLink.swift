// SPDX-License-Identifier: MIT
import CanvasModel
import StylusClient
import StylusProtocol
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The overlay's only contact with stylusd, on StylusClient: a subscription
/// to `canvas`, `pen`, `output` and `device` that reconnects by itself (100 ms doubling to 5 s,
/// a fresh `status` after each reconnection), and one-shot requests on their
/// own threads. Everything it hands the window is a `DaemonUpdate` or a plain
/// value, delivered through `deliver` (which the window hops onto the main thread).
final class DaemonLink: Sendable {
    let path: String
    private let handle = Mutex<SubscriptionHandle?>(nil)
    /// Bumped by every `device` event: a slower `status` from an earlier event must not overwrite a newer one.
    private let pensGeneration = Mutex(0)

    init(socket: String?) throws(StylusClientError) {
        path = try StylusConnection.resolvePath(socket: socket)
    }

    /// Starts following the daemon; `deliver` runs on the subscription's thread.
    /// `onEnd` is called when retrying cannot help (another user's daemon).
    /// `share` runs, on that thread too, for each snapshot or copy the daemon asks for.
    func start(_ deliver: @escaping @Sendable (DaemonUpdate) -> Void, share: @escaping @Sendable (ShareAsk) -> Void = { _ in },
               onEnd: @escaping @Sendable (String?) -> Void) {
        let subscription = StylusSubscription(topics: [.canvas, .pen, .output, .device, .tool], path: path)
        let path = path
        let h = subscription.start({ update in
            switch update {
            case .connected(let status):
                deliver(Self.connected(status, again: false))
                deliver(.palette(shown: status.tool?.palette ?? false, colors: status.tool?.paletteColors))
                deliver(.background(Self.board(status)))
                deliver(.indicator(Self.indicator(status)))
            case .reconnected(let status):
                deliver(Self.connected(status, again: true))
                deliver(.palette(shown: status.tool?.palette ?? false, colors: status.tool?.paletteColors))
                deliver(.background(Self.board(status)))
                deliver(.indicator(Self.indicator(status)))
            case .disconnected(let reason): deliver(.disconnected(reason: reason))
            case .event(let event) where event.name == "device":
                // The event names the device; where it sits on the screen is in the status.
                let generation = self.pensGeneration.withLock { g -> Int in
                    g += 1
                    return g
                }
                Self.detached {
                    guard let status = try? StylusConnection(path: path).status() else { return }
                    // Delivered under the lock, so that a newer answer cannot pass this one on the way.
                    self.pensGeneration.withLock { g in
                        if g == generation { deliver(.pens(Self.pens(status))) }
                    }
                }
            case .event(let event) where event.name == "share":
                if let ask = ShareAsk(event) { share(ask) }
            case .event(let event):
                if let update = Self.translate(event) { deliver(update) }
                if event.name == "tool" { deliver(.palette(shown: event.fields["palette"] == .bool(true), colors: Self.colors(event))) }
            }
        }, onEnd: { error in onEnd(error.map { "\($0)" }) })
        handle.withLock { $0 = h }
    }

    func stop() { handle.withLock { $0?.cancel() } }

    private static func connected(_ status: StatusResult, again: Bool) -> DaemonUpdate {
        .connected(canvas: CanvasState(rawValue: status.canvas.state) ?? .minimized,
                   strokeCount: status.canvas.strokeCount, capturesPen: status.output.map { $0.capturesPen ?? ($0.mode == "filter") } ?? false,
                   pens: pens(status), style: status.tool?.style ?? InkStyle(), again: again)
    }

    /// The board `status` reports; none from a daemon before boards.
    private static func board(_ status: StatusResult) -> InkBoard {
        status.canvas.background.flatMap(InkBoard.init(name:)) ?? .none
    }

    static func indicator(_ status: StatusResult) -> InkIndicator {
        status.canvas.indicator.flatMap(InkIndicator.init(rawValue:)) ?? .frame
    }

    /// `[canvas] indicator` as the daemon says now (nil: it could not be asked), on a thread of its own.
    func indicatorSetting(_ done: @escaping @Sendable (InkIndicator?) -> Void) {
        let path = path
        Self.detached {
            done((try? StylusConnection(path: path).status()).map(Self.indicator))
        }
    }

    private static func pens(_ status: StatusResult) -> [PenSurface] {
        status.input.devices.filter { $0.kind == "pen" }.map {
            PenSurface(widthMM: $0.widthMM, heightMM: $0.heightMM, direct: $0.direct ?? false, bus: $0.bus, vendor: $0.vendor)
        }
    }

    /// A `tool` event's palette colours (a reload can change them); nil from a daemon that sends none.
    private static func colors(_ event: EventLine) -> [InkColor]? {
        guard case .array(let values)? = event.fields["colors"] else { return nil }
        return values.compactMap { if case .string(let hex) = $0 { InkColor(hex: hex) } else { nil } }
    }

    static func translate(_ event: EventLine) -> DaemonUpdate? {
        func number(_ key: String) -> Double? { if case .number(let n)? = event.fields[key] { n } else { nil } }
        switch event.name {
        case "pen":
            guard let x = number("x"), let y = number("y") else { return nil }
            let tip = if case .bool(let b)? = event.fields["tip"] { b } else { false }
            return .pen(device: UInt32(number("device") ?? 0), tool: InkTool(name: event.string("tool") ?? "pen"),
                        point: InkPoint(x: x, y: y, pressure: number("pressure") ?? 0), tip: tip)
        case "proximity":
            return .proximity(device: UInt32(number("device") ?? 0), inProximity: event.string("state") == "in")
        case "canvas":
            guard let state = event.string("state").flatMap(CanvasState.init(rawValue:)) else { return nil }
            return .canvas(state, cause: event.string("cause") ?? "", strokeCount: Int(number("stroke_count") ?? 0))
        case "stroke":
            return .strokeRecorded(index: Int(number("index") ?? 0))
        case "background":
            return event.string("background").flatMap(InkBoard.init(name:)).map(DaemonUpdate.background)
        case "tool":
            guard let tool = event.string("tool") else { return nil }
            return .style(InkStyle(tool: InkTool(name: tool), color: event.string("color").flatMap(InkColor.init(hex:)) ?? .red,
                                      width: number("width") ?? InkStyle.defaultWidth))
        case "output":
            // A daemon older than captures_pen captured in every filter mode.
            if case .bool(let captures)? = event.fields["captures_pen"] { return .capturesPen(captures) }
            return .capturesPen(event.string("mode") == "filter")
        default:
            return nil
        }
    }

    // MARK: Requests, each on its own connection and thread; `done` runs on that thread.

    enum Command: Sendable { case ack, minimize, overlay(OverlayReport), key(ClientCommand), shared(ShareReply) }

    /// Any result: only whether the daemon said ok matters.
    private struct AnyResult: Decodable {}

    func send(_ command: Command, done: @escaping @Sendable (String?) -> Void) {
        let path = path
        Self.detached {
            do throws(StylusClientError) {
                let connection = try StylusConnection(path: path)
                switch command {
                case .ack: _ = try connection.ack()
                case .minimize: _ = try connection.minimize()
                case .overlay(let report): _ = try connection.reportOverlay(report)
                // A key's answer is its action's: a status, or a snapshot's or copy's result.
                case .key(let command): _ = try connection.request(command) as AnyResult
                case .shared(let reply): _ = try connection.request(.shared(reply)) as StatusResult
                }
                done(nil)
            } catch {
                done(error.message)
            }
        }
    }

    /// The daemon forgets a palette's regions when the connection that sent
    /// them closes (so a canvas that ends leaves no palette behind); this one
    /// stays open for as long as the canvas runs.
    private let paletteConnection = Mutex<(connection: StylusConnection?, sent: Int)>((nil, 0))
    private let paletteGeneration = Mutex(0)

    /// Tells the daemon where the palette is; a newer report overtakes an older one still waiting.
    func reportPalette(_ regions: [InkRegion], done: @escaping @Sendable (String?) -> Void) {
        let path = path
        let generation = paletteGeneration.withLock { g -> Int in
            g += 1
            return g
        }
        Self.detached {
            self.paletteConnection.withLock { state in
                guard generation > state.sent else { return }
                var failure: String?
                // Once again on a fresh connection: the daemon may have restarted since the last report.
                for _ in 0..<2 {
                    do throws(StylusClientError) {
                        if state.connection == nil { state.connection = try StylusConnection(path: path) }
                        _ = try state.connection!.reportPalette(regions)
                        state.sent = generation
                        failure = nil
                        break
                    } catch {
                        failure = error.message
                        if case .commandFailed = error.kind { break }   // the daemon refused these regions: another try says the same
                        state.connection = nil
                    }
                }
                done(failure)
            }
        }
    }

    /// The drawing's strokes from index `from` on: those, the index of the first (nil: the answer
    /// lists the whole drawing, as a daemon before `from` does), and how many the drawing has.
    func strokes(from: Int, done: @escaping @Sendable (Result<StrokesTail, StylusClientError>) -> Void) {
        let path = path
        Self.detached {
            do throws(StylusClientError) {
                let result = try StylusConnection(path: path).strokes(from: from)
                done(.success(StrokesTail(from: result.from, count: result.count, strokes: result.strokes.map { stroke in
                    InkStroke(device: stroke.device, style: stroke.style, points: stroke.points.map {
                        InkPoint(x: Double($0.point.x), y: Double($0.point.y), pressure: Double($0.point.pressure))
                    }, text: stroke.strokeText)
                })))
            } catch {
                done(.failure(error))
            }
        }
    }

    static func detached(_ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, { Unmanaged<Box>.fromOpaque($0!).takeRetainedValue().body(); return nil }, box) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
        }
    }
}
