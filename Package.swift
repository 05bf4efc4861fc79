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
        // FFmpeg's libraries (Debian: libavformat-dev libavcodec-dev
        // libswscale-dev libavutil-dev libavdevice-dev).
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libswresample-dev", "libavutil-dev", "libavdevice-dev"])]
        ),
        // Reader and writer over FFmpeg: the macros and array fields stay in C.
        .target(
            name: "CVideoShim",
            dependencies: ["CFFmpeg"],
            linkerSettings: ["avcodec", "avdevice", "swscale", "swresample", "avutil"].map { .linkedLibrary($0) }
        ),
        // libmicrohttpd, the HTTP server under `veil serve` (Debian: libmicrohttpd-dev).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Fixed-argument start, and the request life cycle (bounded body, suspend, resume) in C.
        .target(
            name: "CMicroHTTPDShim",
            dependencies: ["CMicroHTTPD"],
            linkerSettings: [.linkedLibrary("microhttpd")]
        ),
        .target(
            name: "VeilKit",
            dependencies: ["CVipsShim", "CVideoShim"]
        ),
        .executableTarget(name: "veil", dependencies: ["VeilKit", "CMicroHTTPDShim"]),
        // bench/render: render time with 1 to 500 regions (run by bench/render/run, never in tests).
        .executableTarget(name: "veil-bench-render", dependencies: ["VeilKit"], path: "bench/render", exclude: ["run", "old"]),
        .testTarget(name: "VeilKitTests", dependencies: ["VeilKit"]),
    ]
)
