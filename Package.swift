// swift-tools-version: 6.1
// SPDX-License-Identifier: MIT
import PackageDescription

let package = Package(
    name: "stylusd",
    products: [
        .executable(name: "stylusd", targets: ["stylusd"]),
        .executable(name: "stylusctl", targets: ["stylusctl"]),
        .library(name: "StylusProtocol", targets: ["StylusProtocol"]),
        .library(name: "StylusClient", targets: ["StylusClient"]),
        // For stylus-canvas (Overlay/), which builds apart because it links GTK.
        .library(name: "CanvasModel", targets: ["CanvasModel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibinput",
            pkgConfig: "libinput",
            providers: [.apt(["libinput-dev"])]
        ),
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CLibwacom",
            pkgConfig: "libwacom",
            providers: [.apt(["libwacom-dev"])]
        ),
        // Linux system headers Glibc's module leaves out (signalfd, timerfd).
        .systemLibrary(name: "CLinux"),
        // Thin typed syscall helpers: errno and EINTR in one place, the Unix
        // socket address, write-all, the monotonic clock.
        .target(
            name: "StylusSystem",
            dependencies: ["CLinux", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // The pure engine: no C, no I/O, no clocks.
        .target(name: "StylusCore"),
        // The socket protocol: requests, responses, events, topics, socket paths. Pure.
        .target(name: "StylusProtocol", dependencies: ["StylusCore"]),
        // A client of the socket: typed requests, subscriptions that survive daemon restarts.
        .target(name: "StylusClient", dependencies: ["StylusProtocol", "StylusSystem"]),
        // What the canvas overlay draws and when, without GTK or sockets: stroke
        // geometry, the live and finished layers, the monitors a canvas covers.
        .target(
            name: "CanvasModel",
            dependencies: ["StylusCore"],
            // The canvas spec is data for every renderer (docs/OVERLAY.md, "The canvas spec"), read by the tests.
            exclude: ["canvas-spec.json"]
        ),
        .testTarget(name: "CanvasModelTests", dependencies: ["CanvasModel"]),
        // Everything that touches the kernel's input stack or input files.
        .target(
            name: "StylusInput",
            // StylusOutput for `stylusd replay --output-frames` (RecordingPlayer drives a CloneReplay).
            dependencies: ["StylusCore", "StylusOutput", "StylusSystem", "CLibevdev", "CLibinput", "CLibwacom", "CLinux"]
        ),
        // config.toml: presets, errors that name file, line and key, and the
        // parser child that reads it (started, waited for, answered).
        .target(name: "StylusConfig", dependencies: ["StylusCore", "StylusSystem", "StylusProtocol"]),
        // A TOML 1.0 parser of our own, pure Swift without Foundation: TOMLKit
        // (toml++ and Foundation with ICU's data) made the parser child 55 MiB.
        .target(name: "StylusTOML"),
        // TOMLKit is only the tests' oracle: the same tree as StylusTOML's over
        // the docs' examples, the test configs and generated documents.
        .testTarget(
            name: "StylusTOMLTests",
            dependencies: ["StylusTOML", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // config.toml's TOML tree read into settings, and the parser child's `main`
        // (`stylusd parse-config-child`: the daemon's own binary, a process apart).
        .target(
            name: "StylusConfigParser",
            dependencies: ["StylusConfig", "StylusCore", "StylusSystem", "StylusTOML"]
        ),
        // The imperative shell: the event loop around the engine.
        .target(
            name: "StylusDaemon",
            dependencies: ["StylusCore", "StylusProtocol", "StylusInput", "StylusOutput", "StylusUinput", "StylusConfig", "StylusSystem", "CLinux",
                           "CanvasModel",   // export's SVG: the one writer stylusctl uses too
                           .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "stylusd",
            dependencies: [
                "StylusCore", "StylusProtocol", "StylusInput", "StylusOutput", "StylusDaemon", "StylusConfig", "StylusConfigParser",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "stylusctl",
            dependencies: [
                // No StylusConfigParser: `config check` and calibrate start the daemon's parser
                // child, `stylusd parse-config-child`, found beside stylusctl.
                "StylusCore", "StylusProtocol", "StylusClient", "StylusConfig", "StylusSystem", "CLinux",
                "CanvasModel",   // strokes --svg: the SVG writer the daemon's export uses
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // docs/CLIENTS.md's Swift example, built so that it cannot rot.
        .executableTarget(name: "stylus-example-client", dependencies: ["StylusClient"], path: "examples/swift-client"),
        .executableTarget(name: "stylus-example-ask", dependencies: ["StylusClient"], path: "examples/ask-for-drawing"),
        .executableTarget(
            name: "stylus-bench",
            dependencies: [
                "StylusCore", "StylusInput", "StylusProtocol", "CLinux",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // The fuzz targets' bodies, shared by libFuzzer and the regression tests.
        .target(
            name: "StylusFuzz",
            dependencies: ["StylusCore", "StylusProtocol", "StylusInput", "StylusConfig", "StylusConfigParser", "StylusDaemon"]
        ),
        .testTarget(
            name: "StylusFuzzTests",
            dependencies: ["StylusFuzz", "StylusInput", "StylusConfig", "StylusConfigParser"]
        ),
        .testTarget(
            name: "StylusCoreTests",
            dependencies: [
                "StylusCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Where input goes after the engine: the output seam and its implementations, and
        // filter mode's pure decisions (CloneFilter, CloneReplay).
        .target(name: "StylusOutput", dependencies: ["StylusCore"]),
        // Filter mode: the grabbed real node read raw, its virtual clone written through uinput (libevdev).
        .target(name: "StylusUinput", dependencies: ["StylusCore", "StylusOutput", "StylusInput", "StylusSystem", "CLibevdev", "CLinux"]),
        .testTarget(
            name: "StylusOutputTests",
            dependencies: ["StylusOutput", "StylusCore", "StylusInput",
                           .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // What StylusUinput decides without /dev/uinput, and its grab watchdog on pipes.
        .testTarget(
            name: "StylusUinputTests",
            dependencies: ["StylusUinput", "StylusOutput", "StylusCore", "StylusInput", "StylusSystem", "CLibevdev"]
        ),
        .testTarget(
            name: "StylusDaemonTests",
            dependencies: ["StylusCore", "StylusProtocol", "StylusDaemon", "StylusConfig", "StylusInput",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "StylusSystemTests",
            dependencies: ["StylusSystem"]
        ),
        .testTarget(
            name: "StylusProtocolTests",
            dependencies: ["StylusCore", "StylusProtocol"]
        ),
        .testTarget(
            name: "StylusctlTests",
            dependencies: ["stylusctl", "StylusProtocol", "StylusCore", "StylusConfig", "CanvasModel",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "StylusdTests",
            dependencies: ["stylusd", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "StylusClientTests",
            dependencies: ["StylusProtocol", "StylusClient", "StylusSystem"]
        ),
        .testTarget(
            name: "StylusConfigTests",
            dependencies: ["StylusCore", "StylusConfig", "StylusConfigParser", "StylusOutput"]
        ),
        .testTarget(
            name: "StylusInputTests",
            dependencies: ["StylusCore", "StylusInput"],
            exclude: []
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer's driver is linked only by -sanitize=fuzzer, so this executable exists only in a fuzzer build:
// `make fuzz` sets STYLUSD_FUZZ=1 and passes -sanitize=fuzzer.
if Context.environment["STYLUSD_FUZZ"] == "1" {
    package.targets += [
        .systemLibrary(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .executableTarget(name: "stylus-fuzz", dependencies: ["StylusFuzz", "StylusConfig", "StylusConfigParser", "CFuzzDriver"], path: "Fuzz/stylus-fuzz"),
    ]
}
