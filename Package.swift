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
        // Nettle (loaded already with GnuTLS, by FFmpeg and libmicrohttpd) for SHA-256, glibc for malloc tuning.
        .systemLibrary(name: "CSystem", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        // ONNX Runtime's C function table (OrtApi) as a struct with named entries,
        // each used entry's position checked at compile time; the library is dlopen'ed.
        .target(name: "COnnxRuntimeShim"),
        // The process-wide SIGINT/SIGTERM handler and its pipe.
        .target(name: "CSystemShim"),
        // FFmpeg's headers (Debian: libavformat-dev libavcodec-dev
        // libswscale-dev libavutil-dev libavdevice-dev); the libraries are opened at run time.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libswresample-dev", "libavutil-dev", "libavdevice-dev"])]
        ),
        // Reader and writer over FFmpeg: the macros and array fields stay in C.
        // FFmpeg is not linked: the shim opens it on the first video call (veil_av.h).
        .target(name: "CVideoShim", dependencies: ["CFFmpeg"]),
        // libmicrohttpd, the HTTP server under `veil serve` (Debian: libmicrohttpd-dev).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Fixed-argument start and info calls; the daemon's callbacks forwarded to Swift
        // (HTTPTransport in VeilServe holds the policy: phases, timeouts, body budget).
        .target(
            name: "CMicroHTTPDShim",
            dependencies: ["CMicroHTTPD"],
            linkerSettings: [.linkedLibrary("microhttpd")]
        ),
        // The library: decode → analyse → render → encode. No HTTP, no argument parsing.
        .target(
            name: "VeilKit",
            dependencies: ["CVipsShim", "CVideoShim", "CSystem", "CSystemShim", "COnnxRuntimeShim"]
        ),
        // What the CLI and the HTTP service both say: options parsed and validated
        // from text, region edits, the JSON reports, the one input-error type.
        .target(name: "VeilVocabulary", dependencies: ["VeilKit"]),
        // The HTTP service over libmicrohttpd: transport, limits, routes, the editor's page (Editor/).
        .target(
            name: "VeilServe",
            dependencies: ["VeilVocabulary", "VeilKit", "CMicroHTTPDShim"],
            // The editor's page, script and style, as files; inlined into one page at `/`.
            resources: ["editor.html", "editor.css", "editor.js"].map { .embedInCode("Editor/\($0)") }
        ),
        // The command line: arguments, progress, one file per command.
        .executableTarget(name: "veil", dependencies: ["VeilServe", "VeilVocabulary", "VeilKit"]),
        // bench/render: render time with 1 to 500 regions (run by bench/render/run, never in tests).
        .executableTarget(name: "veil-bench-render", dependencies: ["VeilKit"], path: "bench/render", exclude: ["run"]),

        // Test fixtures shared by the test targets: dev data, the sample photo, scratch folders.
        .target(name: "VeilTestSupport", dependencies: ["VeilKit"], path: "Tests/VeilTestSupport"),
        .testTarget(name: "VeilKitTests", dependencies: ["VeilKit", "VeilTestSupport"]),
        .testTarget(name: "VeilVocabularyTests", dependencies: ["VeilVocabulary", "VeilTestSupport"]),
        // Browser/: the editor's Python (selenium) driver, run by ServeBrowserTests.
        .testTarget(name: "VeilServeTests", dependencies: ["VeilServe", "VeilVocabulary", "VeilTestSupport"], exclude: ["Browser"]),
        .testTarget(name: "VeilCLITests", dependencies: ["VeilKit", "VeilTestSupport"]),
    ]
)
