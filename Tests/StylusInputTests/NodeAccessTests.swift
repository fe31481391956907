// SPDX-License-Identifier: MIT
import Testing
@testable import StylusInput
#if canImport(Glibc)
import Glibc
#endif

@Suite("Unreadable nodes")
struct NodeAccessTests {
    /// A fake /sys/class/input holding one node's key capabilities.
    static func sysfs(_ node: String, keys: String) -> String {
        var template = Array("/tmp/stylusd-sysfs-XXXXXX".utf8CString)
        let root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        for dir in ["\(root)/\(node)", "\(root)/\(node)/device", "\(root)/\(node)/device/capabilities"] { mkdir(dir, 0o700) }
        let file = fopen("\(root)/\(node)/device/capabilities/key", "w")!
        fputs(keys + "\n", file)
        fclose(file)
        return root
    }

    @Test func aPenIsRecognisedFromSysfsWithoutOpeningItsNode() {
        // A Wacom pen: BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2 in the sixth word.
        let root = Self.sysfs("event7", keys: "1c03 0 0 0 0 0")
        #expect(NodeAccess.looksLikePen("/dev/input/event7", sysfs: root))
    }

    @Test func aKeyboardOrAMissingNodeIsNotAPen() {
        let root = Self.sysfs("event3", keys: "402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe")
        #expect(!NodeAccess.looksLikePen("/dev/input/event3", sysfs: root))
        #expect(!NodeAccess.looksLikePen("/dev/input/event9", sysfs: root))
    }

    @Test func libinputsOpenFailureNamesTheNode() {
        #expect(LogSink.failedOpen(in: "event5  - opening input device '/dev/input/event5' failed (Permission denied).\n") == "/dev/input/event5")
        #expect(LogSink.failedOpen(in: "event5 - Wacom Intuos Pen: is tagged by udev as: Tablet") == nil)
    }

    @Test func theButtonOnlyReasonNamesTheUnreadablePenBeforeOtherNodes() {
        var keyboard = ProbedNode(path: "/dev/input/event0", name: "keyboard", kind: .unreadable, error: "permission denied")
        keyboard.looksLikePen = false
        var pen = ProbedNode(path: "/dev/input/event4", name: "Wacom pen", kind: .unreadable, error: "permission denied")
        pen.looksLikePen = true
        let reason = Probe.buttonOnlyReason([keyboard, pen], directory: "/dev/input") ?? ""
        #expect(reason.hasPrefix("no readable pen: /dev/input/event4 (Wacom pen) is a tablet pen but cannot be opened: permission denied"), "\(reason)")
        #expect(reason.hasSuffix("(and 1 more unreadable node)"), "\(reason)")
    }
}
