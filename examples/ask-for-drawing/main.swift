// SPDX-License-Identifier: MIT
// docs/CLIENTS.md's "ask the user for a drawing": open the canvas, wait until the user puts
// it away, save what they drew as a PNG. Exit 0 with the picture, 1 when nothing was drawn
// or the drawing was thrown away, 2 when stylusd refused.
import FoundationEssentials
import StylusClient
import StylusProtocol

#if canImport(Glibc)
import Glibc
#endif

let out = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "drawing.png"

struct StandardError: TextOutputStream {
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

func fail(_ message: String, status: Int32) -> Never {
    var standardError = StandardError()
    print(message, to: &standardError)
    exit(status)
}

do {
    let stylusd = try StylusConnection()
    _ = try stylusd.subscribe([.canvas])
    _ = try stylusd.open()
    print("Draw, then press Escape (or double-press the pen's button) to hand the drawing over.")
    var put = EventLine?.none
    while put == nil {
        guard let event = try stylusd.nextEvent() else { fail("stylusd went away", status: 1) }
        if event.name == "canvas", event.string("state") == "minimized" { put = event }
    }
    let png: Data
    switch put?.string("result") {
    case "cancelled":
        print("the drawing was thrown away")
        exit(1)
    case "submitted":
        // Submitted on the canvas (a `submit` binding): stylusd wrote the file already.
        png = try Data(contentsOf: URL(filePath: put?.string("path") ?? ""))
    default:
        guard put?.fields["has_content"] == .bool(true) else {
            print("nothing was drawn")
            exit(1)
        }
        // Kept as it is: the client takes it, inline, and the canvas starts afresh next time.
        let result = try stylusd.submit(SubmitOptions(inline: true))
        guard let encoded = result.pngBase64, let bytes = Data(base64Encoded: encoded) else {
            fail("stylusd sent no picture", status: 1)
        }
        png = bytes
    }
    try png.write(to: URL(filePath: out))
    print("saved the drawing to \(out) (\(png.count) bytes)")
} catch let error as StylusClientError {
    fail("stylusd: \(error.message)", status: 2)
} catch {
    fail("\(out): \(error)", status: 1)
}
