// SPDX-License-Identifier: MIT
import ArgumentParser
import CLinux
import StylusClient
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// The terminal taken for a full-screen view: the alternate screen, no
/// echo, keys one at a time, no cursor. `restore()` puts back exactly what
/// was there (also called twice without harm); Ctrl-C and Ctrl-Z still send
/// their signals, which the monitor reads from its signalfd and answers with
/// `restore()` (and `enter()` again when continued).
final class FullScreen {
    private var saved = termios()
    private var restored = true

    init() { enter() }

    func enter() {
        guard restored else { return }
        restored = false
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        write("\u{1b}[?1049h\u{1b}[?25l\u{1b}[2J")
    }

    deinit { restore() }

    func restore() {
        guard !restored else { return }
        restored = true
        write("\u{1b}[?25h\u{1b}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    func size() -> (columns: Int, rows: Int) {
        var w = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 else { return (80, 24) }
        return (Int(w.ws_col), Int(w.ws_row))
    }

    func clear() { write("\u{1b}[2J") }

    /// Every line from the top, each cleared to its end; the rest cleared. One write.
    func draw(_ lines: [String]) {
        var frame = "\u{1b}[H"
        for (i, line) in lines.enumerated() {
            frame += line + "\u{1b}[K"
            if i < lines.count - 1 { frame += "\r\n" }
        }
        frame += "\u{1b}[J"
        write(frame)
    }

    private func write(_ text: String) { emit(Array(text.utf8)) }
}
