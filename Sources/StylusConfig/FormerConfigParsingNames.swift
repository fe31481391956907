// SPDX-License-Identifier: MIT
import StylusCore

// The names config parsing had before it came down to ConfigParserClient
// (the parent side) and ConfigParserChild (the child side).

// kept for StylusDaemon until it is renamed
public typealias ConfigParse = ConfigParserClient
// kept for StylusDaemon until it is renamed
public typealias ConfigParseServer = ConfigParserClient
// kept for StylusDaemon until it is renamed
public typealias PendingConfigParse = ConfigParserClient.PendingParse
// kept for stylus-fuzz (Fuzz/stylus-fuzz/main.swift) until it is renamed
public typealias ConfigParseChild = ConfigParserChild
// kept for StylusDaemon and StylusFuzz until they are renamed: ConfigFile.maxBytes
// and ConfigFile.parse (StylusConfigParser) are ConfigParserChild's.
public typealias ConfigFile = ConfigParserChild

extension ConfigParserChild {
    // kept for StylusDaemon and StylusFuzz until they call ConfigParserClient.parse
    public static func parseIsolated(_ bytes: [UInt8], file: String, executable: String? = nil,
                                     timeLimit: Int64 = ConfigParserClient.timeLimit) throws(ConfigError) -> EngineConfig {
        try ConfigParserClient.parse(bytes, file: file, executable: executable, timeLimit: timeLimit)
    }
}
