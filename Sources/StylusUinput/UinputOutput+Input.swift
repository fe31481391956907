// SPDX-License-Identifier: MIT
import CLibevdev
import CLinux
import StylusCore
import StylusInput
import StylusOutput
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

extension UinputOutput {
    public func descriptorReady(_ handle: (TimedPenInput) -> Void, frameWritten: () -> Void) {
        // With one node in the epoll set (one pen, the usual case) the set
        // being readable means that node is: its read needs no epoll_wait
        // first, a system call less between the pen's report and the
        // clone's (a read that finds nothing gets EAGAIN and costs no more).
        if let n = onlyReadable {
            if n.grabbed { read(n, handle, frameWritten) } else { tryGrab(n) }
            return
        }
        let count = epoll_wait(epollFD, &readyEvents, Int32(readyEvents.count), 0)
        guard count > 0 else { return }
        for i in 0..<Int(count) {
            guard let n = nodes[DeviceID(UInt32(truncatingIfNeeded: readyEvents[i].data.u64))] else { continue }
            if n.grabbed { read(n, handle, frameWritten) } else { tryGrab(n) }
        }
    }

    /// The one node in the epoll set, if there is exactly one.
    private var onlyReadable: Node? {
        var only: Node?
        for n in nodes.values where n.readable {
            if only != nil { return nil }
            only = n
        }
        return only
    }

    func read(_ n: Node, _ handle: (TimedPenInput) -> Void, _ frameWritten: () -> Void) {
        var ev = input_event()
        var flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
        while n.grabbed {
            let rc = libevdev_next_event(n.dev, flag, &ev)
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                // SYN_DROPPED: libevdev hands over the state's changes as events, then a SYN_REPORT.
                if flag == UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue); continue }
            } else if rc == -EAGAIN {
                if flag == UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue) { flag = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue); continue }
                return
            } else if rc != 0 {
                return gone(n)   // ENODEV: the node went away; libinput reports the removal
            }
            let time = Microseconds(ev.time.tv_sec) * 1_000_000 + Microseconds(ev.time.tv_usec)
            let event = EvdevEvent(type: ev.type, code: ev.code, value: ev.value, time: time)
            n.translator.feed(type: ev.type, code: ev.code, value: ev.value, time: time, into: &inputs)
            guard event.isReport else {
                if !(event.type == EV.syn && event.code == SYN.dropped) { n.frame.append(event) }
                continue
            }
            // Moved out (no copy): `handle` may come back into this output.
            var frameInputs: [TimedPenInput] = []
            swap(&frameInputs, &inputs)
            for input in frameInputs { handle(input) }   // the engine, then `apply`
            frameInputs.removeAll(keepingCapacity: true)
            swap(&frameInputs, &inputs)
            n.filter.rawFrame(n.frame, at: time, into: &out)
            n.frame.removeAll(keepingCapacity: true)
            write(n)
            frameWritten()
        }
    }
}
