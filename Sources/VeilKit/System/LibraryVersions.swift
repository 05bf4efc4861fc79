import CVideoShim
import CVipsShim
import Foundation

/// The versions of the libraries Veil runs on, as loaded (not as built
/// against): for `veil --version` and bug reports. ONNX Runtime is a file in
/// VEIL_HOME opened with `dlopen`, so it is read only when asked, and may be
/// absent.
public enum LibraryVersions {
    /// `8.14.1`.
    public static var libvips: String { String(cString: veil_vips_version()) }
    /// FFmpeg's release (`5.1.6-0+deb12u1`), then its libavformat and
    /// libavcodec; throws when its libraries cannot be loaded.
    public static func ffmpeg() throws -> (release: String, libavformat: String, libavcodec: String) {
        try VideoLibraries.require()
        return (String(cString: veil_ffmpeg_version()), dotted(veil_avformat_version()), dotted(veil_avcodec_version()))
    }

    /// ONNX Runtime's version and where it was loaded from; nil when it is
    /// not installed in `home`. Loading it creates no environment.
    public static func onnxRuntime(home: VeilHome = .default) throws -> (version: String, path: String)? {
        let url = home.path(of: .onnxRuntime)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return (ORTAPI.version(try ORTAPI.apiBase(libraryPath: url.path)), url.path)
    }

    /// What ONNX Runtime's 8-bit kernels multiply exactly in this process (`EightBitProbe`):
    /// "8-bit weights", "7-bit weights" (its sums saturate with 8-bit ones: no VNNI), or
    /// "none (float)". Loads the runtime; nil where it is not installed.
    public static func eightBitWeights(home: VeilHome = .default) throws -> String? {
        guard FileManager.default.fileExists(atPath: home.path(of: .onnxRuntime).path) else { return nil }
        switch try InferenceRuntime.shared(home: home).eightBitWeights {
        case .full: return "8-bit weights"
        case .reduced: return "7-bit weights"
        case nil: return "none (float)"
        }
    }

    /// FFmpeg's `AV_VERSION_INT` as `59.27.100`.
    static func dotted(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)" }
}
