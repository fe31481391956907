// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "stylusd",
    products: [
        .executable(name: "stylusd", targets: ["stylusd"]),
        .executable(name: "stylusctl", targets: ["stylusctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
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
        // The pure engine: no C, no I/O, no clocks.
        .target(name: "StylusCore"),
        // Everything that touches the kernel's input stack or input files.
        .target(
            name: "StylusInput",
            dependencies: ["StylusCore", "CLibevdev", "CLibinput", "CLibwacom", "CLinux"]
        ),
        // config.toml: presets, keys, errors that name file, line and key.
        .target(
            name: "StylusConfig",
            dependencies: ["StylusCore", "CLinux", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // The imperative shell: the event loop around the engine.
        .target(
            name: "StylusDaemon",
            dependencies: ["StylusCore", "StylusInput", "StylusConfig", "CLinux"]
        ),
        .executableTarget(
            name: "stylusd",
            dependencies: [
                "StylusCore", "StylusInput", "StylusDaemon", "StylusConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "stylusctl",
            dependencies: [
                "StylusCore", "StylusConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "stylus-bench",
            dependencies: [
                "StylusCore", "StylusInput", "CLinux",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // The fuzz targets' bodies, shared by libFuzzer and the regression tests.
        .target(
            name: "StylusFuzz",
            dependencies: ["StylusCore", "StylusInput", "StylusConfig", "StylusDaemon"]
        ),
        .testTarget(
            name: "StylusFuzzTests",
            dependencies: ["StylusFuzz", "StylusInput", "StylusConfig"]
        ),
        .testTarget(
            name: "StylusCoreTests",
            dependencies: [
                "StylusCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "StylusDaemonTests",
            dependencies: ["StylusCore", "StylusDaemon"]
        ),
        .testTarget(
            name: "StylusConfigTests",
            dependencies: ["StylusCore", "StylusConfig"]
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
        .executableTarget(name: "stylus-fuzz", dependencies: ["StylusFuzz", "StylusConfig", "CFuzzDriver"], path: "Fuzz/stylus-fuzz"),
    ]
}
