// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Veil",
    products: [
        .library(name: "VeilKit", targets: ["VeilKit"]),
        .executable(name: "veil", targets: ["veil"]),
    ],
    targets: [
        // libvips, found through pkg-config (Debian: libvips-dev).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // Fixed-argument wrappers for libvips' variadic calls and GLib macros.
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        .target(
            name: "VeilKit",
            dependencies: ["CVipsShim"]
        ),
        .executableTarget(name: "veil", dependencies: ["VeilKit"]),
        .testTarget(name: "VeilKitTests", dependencies: ["VeilKit"]),
    ]
)
