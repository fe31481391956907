// SPDX-License-Identifier: MIT
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
                    dropPen(at: i)
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

    /// Drops the pen sample at `i`. The usual case, the oldest unsent item
    /// (right behind a partly written one, or at the head), costs O(1): a
    /// stalled client's queue is thousands of items long and loses one per
    /// new sample.
    private mutating func dropPen(at i: Int) {
        queuedBytes -= items[i].bytes.count
        droppedPenSamples += 1
        unreportedDrops += 1
        if i == head {
            items[head] = ([], .notice)
            head += 1
        } else if i == head + 1 {
            // Keep the partly written line: it moves up into the dropped slot.
            items[head + 1] = items[head]
            items[head] = ([], .notice)
            head += 1
        } else {
            items.remove(at: i)
        }
        if head > 1024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
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
