// SPDX-License-Identifier: MIT
import StylusConfig
import Testing

@Suite("paths")
struct PathsTests {
    @Test(arguments: [
        ("c.toml", "/home/u", "/home/u/c.toml"),
        ("./rel.sock", "/tmp/x", "/tmp/x/rel.sock"),
        ("a//./b/st.json", "/tmp/x/", "/tmp/x/a/b/st.json"),
        ("../st.json", "/tmp/x", "/tmp/x/../st.json"),
        ("st.json", "/", "/st.json"),
        (".", "/tmp/x", "/tmp/x"),
        ("/etc/stylusd.toml", "/tmp/x", "/etc/stylusd.toml"),
        ("/a//b", "/tmp/x", "/a//b"),
    ])
    func aRelativePathIsTakenFromTheWorkingDirectory(path: String, directory: String, expected: String) {
        #expect(Paths.absolute(path, against: directory) == expected)
    }

    @Test func theDefaultsFollowXDGThenHome() {
        let both = ["XDG_CONFIG_HOME": "/x/config", "XDG_STATE_HOME": "/x/state/", "HOME": "/home/u"]
        #expect(Paths.defaultConfigFile(environment: both) == "/x/config/stylusd/config.toml")
        #expect(Paths.defaultStateFile(environment: both) == "/x/state/stylusd/state.json")
        let home = ["HOME": "/home/u"]
        #expect(Paths.defaultConfigFile(environment: home) == "/home/u/.config/stylusd/config.toml")
        #expect(Paths.defaultStateFile(environment: home) == "/home/u/.local/state/stylusd/state.json")
        #expect(Paths.defaultConfigFile(environment: [:]) == nil)
        #expect(Paths.defaultStateFile(environment: [:]) == nil)
    }

    /// The XDG Base Directory spec: "If an implementation encounters a
    /// relative path in any of these variables it should consider the path
    /// invalid and ignore it." Empty is unset.
    @Test(arguments: ["config", "./config", "~/.config", ""])
    func anXDGDirectoryThatIsNotAbsoluteIsIgnored(value: String) {
        let environment = ["XDG_CONFIG_HOME": value, "XDG_STATE_HOME": value, "HOME": "/home/u"]
        #expect(Paths.xdgDirectory("XDG_CONFIG_HOME", environment: environment) == nil)
        #expect(Paths.defaultConfigFile(environment: environment) == "/home/u/.config/stylusd/config.toml")
        #expect(Paths.defaultStateFile(environment: environment) == "/home/u/.local/state/stylusd/state.json")
    }

    @Test func aRelativeHomeIsNoHome() {
        let environment = ["HOME": "home/u", "XDG_CONFIG_HOME": "cfg"]
        #expect(Paths.defaultConfigFile(environment: environment) == nil)
        #expect(Paths.defaultStateFile(environment: environment) == nil)
    }

    @Test func theWorkingDirectoryIsAbsolute() throws {
        let directory = try Paths.workingDirectory().get()
        #expect(directory.hasPrefix("/"))
    }
}
