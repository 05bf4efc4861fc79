import Foundation

/// Where a request runs, as Vision's `setComputeDevice` chooses. Only the CPU
/// exists today; a GPU execution provider of ONNX Runtime would be a new case
/// here, configured in `InferenceSession` and nowhere else.
public enum ComputeDevice: Sendable, Hashable {
    /// ONNX Runtime's CPU provider with this many intra-op threads.
    case cpu(threads: Int)

    /// The CPU with one thread per core.
    public static var cpu: ComputeDevice { .cpu(threads: ProcessInfo.processInfo.activeProcessorCount) }

    var threadCount: Int {
        switch self { case let .cpu(threads): return max(1, threads) }
    }
}
