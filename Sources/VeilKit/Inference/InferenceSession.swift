import COnnxRuntimeShim
import Foundation

/// One loaded model, ready to run. ONNX Runtime sessions may be run from
/// several threads at once, so one session per model is shared by all requests.
final class InferenceSession: @unchecked Sendable {
    private let api: ORTAPI
    private let session: OpaquePointer
    private let memoryInfo: OpaquePointer
    let inputNames: [String]
    let outputNames: [String]
    /// As many runs at once as there are cores for their threads
    /// (`runsAtOnce`): at the default one thread per core that is one run, which
    /// already spreads over every core, where more would only compete for them
    /// and multiply the arena's memory. Callers wait their turn without blocking
    /// a thread.
    private let turn: AsyncSemaphore
    /// How many runs this session lets go at once.
    let runsAtOnce: Int

    /// `optimized`: `model` is a file ONNX Runtime optimized already (see
    /// `PreparedModelCache`), opened without optimizing it again.
    /// `savingOptimizedTo`: where ONNX Runtime writes the model as it
    /// optimized it, for the next process.
    init(runtime: InferenceRuntime, model: [UInt8], device: ComputeDevice, optimized: Bool = false, savingOptimizedTo path: String? = nil) throws {
        let api = runtime.api
        self.api = api
        let ort = api.table

        var options: OpaquePointer?
        try api.check(ort.CreateSessionOptions!(&options))
        guard let options else { throw VeilError.inference("no session options") }
        defer { ort.ReleaseSessionOptions!(options) }
        let threads = device.threadCount
        runsAtOnce = Self.runsAtOnce(threads: threads, cores: ProcessInfo.processInfo.activeProcessorCount)
        turn = AsyncSemaphore(runsAtOnce)
        try api.check(ort.SetIntraOpNumThreads!(options, Int32(threads)))
        try api.check(ort.SetInterOpNumThreads!(options, 1))
        try api.check(ort.SetSessionGraphOptimizationLevel!(options, optimized ? ORT_DISABLE_ALL : ORT_ENABLE_ALL))
        if let path { try api.check(ort.SetOptimizedModelFilePath!(options, path)) }
        // Inputs change size from image to image: a memory pattern planned for
        // one shape is useless for the next. ORT's arena stays on: it reuses its
        // blocks instead of faulting in fresh pages for every run.
        try api.check(ort.DisableMemPattern!(options))
        // Idle pool threads would otherwise spin and steal the other stages' cores.
        try api.check(ort.AddSessionConfigEntry!(options, "session.intra_op.allow_spinning", "0"))

        var session: OpaquePointer?
        try model.withUnsafeBytes { bytes in
            try api.check(ort.CreateSessionFromArray!(runtime.env, bytes.baseAddress!, bytes.count, options, &session))
        }
        guard let session else { throw VeilError.inference("no session") }
        self.session = session

        var info: OpaquePointer?
        try api.check(ort.CreateCpuMemoryInfo!(OrtArenaAllocator, OrtMemTypeDefault, &info))
        memoryInfo = info!
        inputNames = try InferenceSession.names(api, session, count: ort.SessionGetInputCount!, name: ort.SessionGetInputName!)
        outputNames = try InferenceSession.names(api, session, count: ort.SessionGetOutputCount!, name: ort.SessionGetOutputName!)
    }

    /// Runs at once for `threads` intra-op threads a run on `cores` cores: the
    /// cores they fill, at least one. `--threads 1 --jobs 2` on two cores then
    /// runs two images' passes side by side, as it says, instead of one at a
    /// time on one core. `veil blur` does so for a batch, with a photo's passes
    /// two at a time; lifting does not, for no time and more memory
    /// (docs/design/faces.md#runs-at-once-a-run-per-core).
    static func runsAtOnce(threads: Int, cores: Int) -> Int {
        max(1, max(1, cores) / max(1, threads))
    }

    deinit {
        api.table.ReleaseMemoryInfo!(memoryInfo)
        api.table.ReleaseSession!(session)
    }

    private typealias CountEntry = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int>?) -> OpaquePointer?
    private typealias NameEntry = @convention(c) (OpaquePointer?, Int, OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> OpaquePointer?

    /// The inputs' or the outputs' names, through `SessionGet{Input,Output}{Count,Name}`.
    private static func names(_ api: ORTAPI, _ session: OpaquePointer, count: CountEntry, name: NameEntry) throws -> [String] {
        var n = 0
        try api.check(count(session, &n))
        var allocator: OpaquePointer?
        try api.check(api.table.GetAllocatorWithDefaultOptions!(&allocator))
        return try (0..<n).map { i in
            var cName: UnsafeMutablePointer<CChar>?
            try api.check(name(session, i, allocator!, &cName))
            defer { _ = api.table.AllocatorFree!(allocator!, cName!) }
            return String(cString: cName!)
        }
    }

    /// One input of a run: floats, or bytes where the model takes bytes.
    enum Input {
        case float(Tensor)
        case bytes(ByteTensor)

        var shape: [Int] {
            switch self {
            case let .float(t): t.shape
            case let .bytes(t): t.shape
            }
        }

        /// The values' bytes and ORT's name for their type, for the length of `body`.
        func withBytes<R>(_ body: (UnsafeRawBufferPointer, ONNXTensorElementDataType) throws -> R) rethrows -> R {
            switch self {
            case let .float(t): try t.values.withUnsafeBytes { try body($0, ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) }
            case let .bytes(t): try t.values.withUnsafeBytes { try body($0, ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8) }
            }
        }
    }

    /// A run's outputs by name: float ones through the subscript, byte ones through `bytes(_:)`.
    struct Outputs {
        var floats: [String: Tensor] = [:]
        var byteTensors: [String: ByteTensor] = [:]
        subscript(name: String) -> Tensor? { floats[name] }
        func bytes(_ name: String) -> ByteTensor? { byteTensors[name] }
    }

    /// Runs the model on `inputs` (in the model's input order) and returns every output.
    func run(_ inputs: [Tensor]) async throws -> Outputs {
        try await run(inputs.map(Input.float))
    }

    /// Runs the model on `inputs`, floats or bytes as the model takes them.
    func run(_ inputs: [Input]) async throws -> Outputs {
        try await turn.withPermit {
            try Task.checkCancellation()
            return try runNow(inputs)
        }
    }

    /// Runs the model now, on the caller's thread, without waiting for a turn (`EightBitProbe`'s
    /// own session, run once by one caller).
    func runNow(_ inputs: [Input]) throws -> Outputs {
        guard inputs.count == inputNames.count else {
            throw VeilError.inference("model takes \(inputNames.count) inputs, given \(inputs.count)")
        }
        let ort = api.table

        var values = [OpaquePointer?](repeating: nil, count: inputs.count)
        defer { values.forEach { if let v = $0 { ort.ReleaseValue!(v) } } }
        var outputs = [OpaquePointer?](repeating: nil, count: outputNames.count)
        defer { outputs.forEach { if let v = $0 { ort.ReleaseValue!(v) } } }

        return try withCStrings(inputNames) { inNames in
            try withCStrings(outputNames) { outNames in
                // ORT reads the callers' buffers in place: it never writes an
                // input, so the pointer is made mutable only to fit the C API.
                // (Asking Swift for mutable bytes of a shared array copied it:
                // 9 MB and its page faults per 1024x768 pass.)
                for i in inputs.indices {
                    let shape = inputs[i].shape.map(Int64.init)
                    try inputs[i].withBytes { raw, type in
                        try api.check(ort.CreateTensorWithDataAsOrtValue!(
                            memoryInfo, UnsafeMutableRawPointer(mutating: raw.baseAddress!), raw.count, shape, shape.count,
                            type, &values[i]))
                    }
                }
                // `inputs` (and so the buffers the values point into) lives until the run has finished.
                try withExtendedLifetime(inputs) {
                    try api.check(ort.Run!(
                        session, nil, inNames, values, values.count, outNames, outputNames.count, &outputs))
                }
                var result = Outputs()
                for (i, name) in outputNames.enumerated() {
                    try read(outputs[i]!, as: name, into: &result)
                }
                return result
            }
        }
    }

    /// Copies one output into `result`, by its element type.
    private func read(_ value: OpaquePointer, as name: String, into result: inout Outputs) throws {
        let ort = api.table
        var info: OpaquePointer?
        try api.check(ort.GetTensorTypeAndShape!(value, &info))
        defer { if let info { ort.ReleaseTensorTypeAndShapeInfo!(info) } }
        var count = 0
        try api.check(ort.GetDimensionsCount!(info!, &count))
        var dims = [Int64](repeating: 0, count: count)
        try api.check(ort.GetDimensions!(info!, &dims, count))
        var type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED
        try api.check(ort.GetTensorElementType!(info!, &type))
        let shape = dims.map(Int.init)
        var data: UnsafeMutableRawPointer?
        try api.check(ort.GetTensorMutableData!(value, &data))
        let n = shape.reduce(1, *)
        switch type {
        case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT:
            result.floats[name] = Tensor(shape: shape, values: Array(UnsafeBufferPointer(start: data!.assumingMemoryBound(to: Float.self), count: n)))
        case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8:
            result.byteTensors[name] = ByteTensor(shape: shape, values: Array(UnsafeBufferPointer(start: data!.assumingMemoryBound(to: UInt8.self), count: n)))
        default:
            throw VeilError.inference("output \(name) has element type \(type.rawValue), not float or uint8")
        }
    }
}

/// Calls `body` with a C array of C strings that lives for the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R) rethrows -> R {
    let duplicated = strings.map { UnsafePointer(strdup($0)) }
    defer { duplicated.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return try duplicated.withUnsafeBufferPointer { try body($0.baseAddress!) }
}
