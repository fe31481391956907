/// One client's unsent output. A client that stops reading must never slow
/// the daemon or the other clients, so the queue is bounded:
/// - pen samples beyond the bound drop the oldest queued samples, and the
///   client is told how many were lost before its next sample;
/// - state events beyond the bound disconnect the client, with a reason;
/// - responses are always queued (the client asked), up to a hard limit.
struct OutboundQueue {
    enum Kind { case response, state, pen, notice }

    enum Verdict: Equatable {
        case queued
        case droppedPen
        case overflow(reason: String)
    }

    let eventLimit: Int
    let hardLimit: Int
    private var items: [(bytes: [UInt8], kind: Kind)] = []
    private var head = 0
    /// Bytes of the first item already written.
    private var sentOfHead = 0
    private(set) var queuedBytes = 0
    private(set) var droppedPenSamples = 0
    private var unreportedDrops = 0

    init(eventLimit: Int = 1 << 20, hardLimit: Int = 64 << 20) {
        self.eventLimit = eventLimit
        self.hardLimit = hardLimit
    }

    var isEmpty: Bool { head == items.count }

    mutating func enqueue(_ bytes: [UInt8], kind: Kind) -> Verdict {
        switch kind {
        case .response, .notice:
            if queuedBytes + bytes.count > hardLimit {
                return .overflow(reason: "the client does not read its responses (\(queuedBytes) bytes waiting)")
            }
        case .state:
            if queuedBytes + bytes.count > eventLimit {
                return .overflow(reason: "the client does not read its events (\(queuedBytes) bytes waiting, limit \(eventLimit))")
            }
        case .pen:
            if unreportedDrops > 0, queuedBytes + bytes.count <= eventLimit / 2 {
                append(Array("{\"event\":\"dropped\",\"topic\":\"pen\",\"count\":\(unreportedDrops)}\n".utf8), .notice)
                unreportedDrops = 0
            }
            var i = head + (sentOfHead > 0 ? 1 : 0)
            while queuedBytes + bytes.count > eventLimit, i < items.count {
                if items[i].kind == .pen {
                    queuedBytes -= items[i].bytes.count
                    items.remove(at: i)
                    droppedPenSamples += 1
                    unreportedDrops += 1
                } else {
                    i += 1
                }
            }
            if queuedBytes + bytes.count > eventLimit {
                droppedPenSamples += 1
                unreportedDrops += 1
                return .droppedPen
            }
        }
        append(bytes, kind)
        return .queued
    }

    private mutating func append(_ bytes: [UInt8], _ kind: Kind) {
        items.append((bytes, kind))
        queuedBytes += bytes.count
    }

    /// Hands the unsent bytes to `write` (which returns how many it took, or
    /// nil on EAGAIN) until it stops taking them. Returns false on error.
    mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int?) -> Bool {
        while head < items.count {
            let taken: Int? = items[head].bytes.withUnsafeBytes { all in
                write(UnsafeRawBufferPointer(rebasing: all[sentOfHead...]))
            }
            guard let taken else { return true }
            if taken < 0 { return false }
            sentOfHead += taken
            queuedBytes -= taken
            if sentOfHead == items[head].bytes.count {
                head += 1
                sentOfHead = 0
            } else {
                return true
            }
        }
        items.removeAll(keepingCapacity: true)
        head = 0
        return true
    }
}
