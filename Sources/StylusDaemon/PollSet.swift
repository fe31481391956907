// SPDX-License-Identifier: MIT
import CLinux
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The descriptors of one turn of the loop: a fixed slot per source, then
/// the `exec:` commands, then the clients. Rebuilt every turn, without
/// allocating once it has grown (this runs once per pen event).
struct PollSet {
    /// The fixed sources, in poll order; a source with nothing to watch is
    /// polled as -1, which poll skips, so that every slot keeps its place.
    enum Slot: Int, CaseIterable {
        case input, signals, timer, listener, reloader, catalog, output, saver, exporter
    }

    /// `Slot.allCases` makes a new array on every call.
    private static let slots = Slot.allCases
    private(set) var entries: [pollfd] = []
    private var commandsEnd = slots.count

    init() { entries.reserveCapacity(16) }

    /// Starts a turn with each slot's descriptor (nil: nothing to watch).
    mutating func watch(_ descriptor: (Slot) -> Int32?) {
        entries.removeAll(keepingCapacity: true)
        for slot in Self.slots { entries.append(Self.readable(descriptor(slot) ?? -1)) }
    }

    /// The commands' descriptors, after the slots, in the order `commands` gives them back.
    mutating func watchCommands(_ launcher: CommandLauncher) {
        launcher.watch(into: &entries)
        commandsEnd = entries.count
    }

    mutating func watchClients(_ clients: [ClientConnection]) {
        for client in clients {
            entries.append(pollfd(fd: client.fd, events: (client.wantsInput ? Int16(POLLIN) : 0) | (client.output.isEmpty ? 0 : Int16(POLLOUT)), revents: 0))
        }
    }

    /// poll(2) for `timeout` ms (-1: until something is ready), again after
    /// a signal interrupts it; the count of ready descriptors, or -1.
    mutating func poll(timeout: Int32) -> Int32 {
        retryingInterrupts { Glibc.poll(&entries, nfds_t(entries.count), timeout) }
    }

    func isReady(_ slot: Slot) -> Bool { entries[slot.rawValue].revents != 0 }

    /// What poll said of the commands, for `CommandLauncher.serve`.
    var commands: ArraySlice<pollfd> { entries[Self.slots.count..<commandsEnd] }

    /// What poll said of the `index`th client passed to `watchClients`.
    func client(_ index: Int) -> Int16 { entries[commandsEnd + index].revents }

    private static func readable(_ fd: Int32) -> pollfd { pollfd(fd: fd, events: Int16(POLLIN), revents: 0) }
}
