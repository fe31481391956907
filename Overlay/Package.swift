// swift-tools-version: 6.1
import PackageDescription

// stylus-canvas, the canvas overlay: its own package so that the daemon and
// stylusctl (the root package) build and run on machines without GTK. It
// talks to the daemon only through the root package's StylusClient.
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
        // What the overlay draws and when, without GTK or sockets: stroke
        // geometry, the live and finished layers. Tested by `swift test`.
        .target(name: "CanvasModel"),
        .executableTarget(
            name: "stylus-canvas",
            dependencies: ["CGtk4", "CanvasModel", .product(name: "StylusClient", package: "stylusd")]
        ),
        .testTarget(name: "CanvasModelTests", dependencies: ["CanvasModel"]),
    ],
    swiftLanguageModes: [.v6]
)
