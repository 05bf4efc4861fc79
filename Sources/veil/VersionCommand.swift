import VeilKit

/// `veil version` (and `veil --version`): veil's version and those of the
/// libraries it runs on, for bug reports. ONNX Runtime is loaded only here
/// and only to read its version; absent, it is said to be not installed.
enum VersionCommand {
    static let definition = CommandSpec.bare("version", summary: "print the versions of veil, ONNX Runtime, libvips and FFmpeg, and the CPU kind",
                                             details: ["`veil --version` is the same."]) { printVersions() }

    /// Each library's version, a line each, printed as it is found.
    static func printVersions() {
        print("veil \(VeilVersion)")
        do {
            if let ort = try LibraryVersions.onnxRuntime() { print("ONNX Runtime \(ort.version) (\(ort.path))") }
            else { print("ONNX Runtime not installed (`veil models install onnxruntime`)") }
        } catch {
            print("ONNX Runtime cannot be loaded: \(error)")
        }
        print("libvips \(LibraryVersions.libvips)")
        do {
            let ffmpeg = try LibraryVersions.ffmpeg()
            print("FFmpeg \(ffmpeg.release) (libavformat \(ffmpeg.libavformat), libavcodec \(ffmpeg.libavcodec))")
        } catch {
            print("\(error)")
        }
        // The benchmarks quote their ratios per CPU kind: what this one is, and the precision it picks.
        print("CPU \(CPUKind.current): models in \(ModelPrecision.preferred.rawValue) by default")
        // What the kernels themselves multiply exactly: the 8-bit networks are made for it.
        if let weights = try? LibraryVersions.eightBitWeights() { print("ONNX Runtime's exact 8-bit arithmetic: \(weights)") }
    }
}
