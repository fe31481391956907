// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// A bound on a blocking read that StylusConnection does not offer: SIGALRM
/// after the time given, whose handler writes the message prepared beforehand
/// and exits with the protocol-error status (write and _exit only: nothing
/// that is unsafe in a signal handler).
enum Deadline {
    nonisolated(unsafe) private static var message: UnsafeMutablePointer<CChar>?

    static func arm(milliseconds: Int, message text: String) {
        free(message)
        message = strdup(text + "\n")
        signal(SIGALRM) { _ in
            if let text = Deadline.message { _ = write(STDERR_FILENO, text, strlen(text)) }
            _exit(Status.protocolError)
        }
        var timer = itimerval()
        timer.it_value.tv_sec = milliseconds / 1000
        timer.it_value.tv_usec = (milliseconds % 1000) * 1000
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }

    static func disarm() {
        var off = itimerval()
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &off, nil)
    }
}
