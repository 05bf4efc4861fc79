import VeilKit

/// `--threads`, `--jobs` and `--max-pixels`: how hard a command works, read
/// once with their ranges for every command that declares them (a command
/// without one of them gets nil).
struct PerformanceOptions {
    /// ONNX Runtime's threads for one inference.
    var threads: Int?
    /// Inputs in flight at once (a batch).
    var jobs: Int?
    /// The largest image decoded, in pixels.
    var maxPixels: Int?

    init(_ args: Arguments) throws {
        threads = args.declares("--threads") ? try args.int("--threads", in: 1...256) : nil
        jobs = args.declares("--jobs") ? try args.int("--jobs", in: 1...64) : nil
        maxPixels = args.declares("--max-pixels") ? try args.int("--max-pixels", in: 1...Int(Int32.max)) : nil
    }

    /// `--threads N` as a compute device, nil when not given.
    var computeDevice: ComputeDevice? { threads.map { .cpu(threads: $0) } }
}
