// SPDX-License-Identifier: MIT

/// A configuration problem, located: "FILE:LINE: KEY: what is wrong".
/// When a file has several (that the parser could tell apart: keys, types,
/// ranges), the first is this one and the rest are `others`, in file order.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String?
    public var message: String
    /// The further problems found in the same file.
    public var others: [ConfigError] = []

    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// Every problem, this one first.
    public var all: [ConfigError] { [ConfigError(file: file, line: line, key: key, message: message)] + others }

    /// One line per problem.
    public var description: String {
        all.map { problem in
            var text = problem.file
            if let line = problem.line { text += ":\(line)" }
            text += ": "
            if let key = problem.key { text += key.isEmpty ? "\"\": " : "\(key): " }
            return text + problem.message
        }.joined(separator: "\n")
    }
}

extension ConfigError {
    package static func tooBig(_ count: Int, file: String) -> ConfigError {
        ConfigError(file: file, line: nil, key: nil, message: "\(count) bytes; a config file is at most \(ConfigParserChild.maxBytes)")
    }

    /// The parser child died, hung or answered nonsense: a bug, since the parser names every problem a file can have.
    static func parserDied(_ how: String, file: String) -> ConfigError {
        ConfigError(file: file, line: nil, key: nil, message:
            "the config parser \(how) on this file instead of naming the problem; this is a bug in stylusd, please report it with the file")
    }

    /// The child could not be started or followed; nothing is known about the file.
    static func cannotCheck(_ reason: String, file: String) -> ConfigError {
        ConfigError(file: file, line: nil, key: nil, message: "cannot check the file: \(reason)")
    }
}
