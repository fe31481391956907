// swift-tools-version: 6.1
// SPDX-License-Identifier: MIT
import PackageDescription

// stylus-canvas, the canvas overlay: its own package so that the daemon and
// stylusctl (the root package) build and run on machines without GTK. It
// talks to the daemon only through the root package's StylusClient, and
// draws what the root package's CanvasModel (GTK-free, tested there) decides.
let package = Package(
    name: "stylus-canvas",
    products: [
        .executable(name: "stylus-canvas", targets: ["stylus-canvas"]),
    ],
    dependencies: [
        .package(name: "stylusd", path: ".."),
    ],
    targets: [
        .systemLibrary(
            name: "CGtk4",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .executableTarget(
            name: "stylus-canvas",
            dependencies: ["CGtk4", .product(name: "CanvasModel", package: "stylusd"),
                           .product(name: "StylusClient", package: "stylusd"),
                           .product(name: "StylusProtocol", package: "stylusd")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
