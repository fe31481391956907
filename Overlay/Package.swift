// swift-tools-version: 6.1
// SPDX-License-Identifier: MIT
import PackageDescription

// stylus-canvas, the canvas overlay: its own package so that the daemon and
// stylusctl (the root package) build and run on machines without a display
// server's libraries (libwayland, libxcb, cairo). It
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
        // GLib's main loop, GIO (D-Bus to GNOME Shell) and cairo. gio-2.0's pkg-config flags carry
        // -pthread, which SwiftPM refuses with a warning at every build: its
        // headers lie under glib-2.0's include path, and the module map links it.
        .systemLibrary(
            name: "CGlib",
            pkgConfig: "glib-2.0 cairo",
            providers: [.apt(["libglib2.0-dev", "libcairo2-dev"])]
        ),
        // libwayland-client and xkbcommon, and the protocol glue that
        // generate-protocols.sh (run by `make overlay`) writes into generated/,
        // which protocols.c compiles: the layer-shell canvas.
        .target(
            name: "CWayland",
            exclude: ["generated"],
            linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]
        ),
        // libxcb with its RandR (monitors), SHAPE (click-through, the ink's
        // outline without a compositor) and XInput 2 (mouse and touch strokes,
        // told from the tablet's pen by their device) libraries: the native X11 canvas.
        .systemLibrary(
            name: "CXcb",
            pkgConfig: "xcb xcb-randr xcb-shape xcb-xinput xcb-xfixes",
            providers: [.apt(["libxcb1-dev", "libxcb-randr0-dev", "libxcb-shape0-dev", "libxcb-xinput-dev", "libxcb-xfixes0-dev"])]
        ),
        // xcb-imdkit's XIM client, the X11 canvas's input method (XMODIFIERS), with
        // wrappers for its variadic calls.
        .target(
            name: "CXim",
            linkerSettings: [.linkedLibrary("xcb-imdkit")]
        ),
        .executableTarget(
            name: "stylus-canvas",
            dependencies: ["CGlib", "CWayland", "CXcb", "CXim", .product(name: "CanvasModel", package: "stylusd"),
                           .product(name: "StylusClient", package: "stylusd"),
                           .product(name: "StylusProtocol", package: "stylusd")]
        ),
        // The executable's pure pieces (options, the daemon's events in the
        // overlay's terms, sizes and scales as given and logged), imported
        // @testable: what draws is checked by Tests/overlay's screenshots.
        .testTarget(
            name: "stylus-canvasTests",
            dependencies: ["stylus-canvas", .product(name: "CanvasModel", package: "stylusd"),
                           .product(name: "StylusProtocol", package: "stylusd")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
