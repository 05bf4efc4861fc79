import VeilKit
import VeilVocabulary

/// `--threads`, `--jobs` and `--max-pixels`: how hard a command works, each
/// option one line, read for every command that declares them (a command
/// without one of them gets nil).
struct PerformanceOptions: ParsableOptions {
    /// ONNX Runtime's threads for one inference.
    var threads: Int?
    /// Inputs in flight at once (a batch).
    var jobs: Int?
    /// The largest image decoded, in pixels.
    var maxPixels: Int?

    static var options: [Option<Self>] {
        [
            .int("threads", "N", \.threads, in: 1...256, .performance, "ONNX Runtime's threads for one image", default: "the cores", sample: "2"),
            .int("jobs", "N", \.jobs, in: 1...64, .performance, "inputs in flight at once (memory grows with each)", sample: "2"),
            .int("max-pixels", "N", \.maxPixels, in: 1...Int(Int32.max), .limits, "refuse an image of more than N pixels, from its header, before decoding",
                 default: "\(ImageDecoder().maxPixels)", sample: "50000000"),
        ]
    }

    /// `--threads N` as a compute device, nil when not given.
    var computeDevice: ComputeDevice? { threads.map { .cpu(threads: $0) } }
}
