// SPDX-License-Identifier: MIT
import ArgumentParser
import FoundationEssentials
import StylusConfig
import StylusCore
import StylusDaemon
import StylusInput
import StylusProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's own files given as relative paths mean the working
/// directory at start, made absolute once: nothing later (a reload, the
/// state saved at exit) depends on where the process stands then.
struct RelativePaths {
    private var directory: Result<String, Paths.WorkingDirectoryError>?
    private var resolved: [String] = []

    mutating func absolute(_ path: String, named option: String) throws -> String {
        guard !path.isEmpty else { throw StartError("\(option) is empty; give a file name") }
        if path.hasPrefix("/") { return path }
        if directory == nil { directory = Paths.workingDirectory() }
        switch directory! {
        case .success(let cwd):
            let absolute = Paths.absolute(path, against: cwd)
            resolved.append("\(option) \(path) is \(absolute)")
            return absolute
        case .failure(let error):
            throw StartError("\(option) \(path) is a relative path and \(error); give an absolute path")
        }
    }

    /// One log line naming each relative path and what it was taken to mean.
    func report() {
        guard !resolved.isEmpty else { return }
        _ = writeAll(STDERR_FILENO, Array("stylusd: relative paths are taken from the working directory: \(resolved.joined(separator: ", "))\n".utf8))
    }
}
