import Foundation

/// One loaded model, ready to run. ONNX Runtime sessions may be run from
/// several threads at once, so one session per model is shared by all requests.
final class InferenceSession: @unchecked Sendable {
    private let api: ORTAPI
    private let session: OpaquePointer
    private let memoryInfo: OpaquePointer
    let inputNames: [String]
    let outputNames: [String]
    /// One run at a time: each run already spreads over every intra-op thread,
    /// and concurrent runs would only compete for the cores and multiply the
    /// arena's memory. Callers wait their turn without blocking a thread.
    private let turn = AsyncSemaphore(1)

    init(runtime: InferenceRuntime, model: [UInt8], device: ComputeDevice) throws {
        let api = runtime.api
        self.api = api
        typealias Create = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
        typealias SetInt = @convention(c) (OpaquePointer, Int32) -> OpaquePointer?
        typealias Entry = @convention(c) (OpaquePointer, UnsafePointer<CChar>, UnsafePointer<CChar>) -> OpaquePointer?
        typealias FromArray = @convention(c) (OpaquePointer, UnsafeRawPointer, Int, OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
        typealias CpuInfo = @convention(c) (Int32, Int32, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?

        var options: OpaquePointer?
        try api.check(api.fn(ORTAPI.Index.createSessionOptions, Create.self)(&options))
        guard let options else { throw VeilError.inference("no session options") }
        defer { api.release(ORTAPI.Index.releaseSessionOptions, options) }
        let threads = device.threadCount
        try api.check(api.fn(ORTAPI.Index.setIntraOpNumThreads, SetInt.self)(options, Int32(threads)))
        try api.check(api.fn(ORTAPI.Index.setInterOpNumThreads, SetInt.self)(options, 1))
        try api.check(api.fn(ORTAPI.Index.setGraphOptimizationLevel, SetInt.self)(options, 99))
        // Inputs change size from image to image: a memory pattern planned for
        // one shape is useless for the next. ORT's arena stays on: it reuses its
        // blocks instead of faulting in fresh pages for every run.
        typealias Disable = @convention(c) (OpaquePointer) -> OpaquePointer?
        try api.check(api.fn(ORTAPI.Index.disableMemPattern, Disable.self)(options))
        // Idle pool threads would otherwise spin and steal the other stages' cores.
        try api.check(api.fn(ORTAPI.Index.addSessionConfigEntry, Entry.self)(options, "session.intra_op.allow_spinning", "0"))

        var session: OpaquePointer?
        try model.withUnsafeBytes { bytes in
            try api.check(api.fn(ORTAPI.Index.createSessionFromArray, FromArray.self)(
                runtime.env, bytes.baseAddress!, bytes.count, options, &session))
        }
        guard let session else { throw VeilError.inference("no session") }
        self.session = session

        var info: OpaquePointer?
        try api.check(api.fn(ORTAPI.Index.createCpuMemoryInfo, CpuInfo.self)(1, 0, &info))
        memoryInfo = info!
        inputNames = try InferenceSession.names(api, session, count: ORTAPI.Index.sessionGetInputCount, name: ORTAPI.Index.sessionGetInputName)
        outputNames = try InferenceSession.names(api, session, count: ORTAPI.Index.sessionGetOutputCount, name: ORTAPI.Index.sessionGetOutputName)
    }

    deinit {
        api.release(ORTAPI.Index.releaseMemoryInfo, memoryInfo)
        api.release(ORTAPI.Index.releaseSession, session)
    }

    private static func names(_ api: ORTAPI, _ session: OpaquePointer, count: Int, name: Int) throws -> [String] {
        typealias Count = @convention(c) (OpaquePointer, UnsafeMutablePointer<Int>) -> OpaquePointer?
        typealias Name = @convention(c) (OpaquePointer, Int, OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> OpaquePointer?
        typealias Allocator = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
        typealias Free = @convention(c) (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
        var n = 0
        try api.check(api.fn(count, Count.self)(session, &n))
        var allocator: OpaquePointer?
        try api.check(api.fn(ORTAPI.Index.getAllocatorWithDefaultOptions, Allocator.self)(&allocator))
        return try (0..<n).map { i in
            var cName: UnsafeMutablePointer<CChar>?
            try api.check(api.fn(name, Name.self)(session, i, allocator!, &cName))
            defer { _ = api.fn(ORTAPI.Index.allocatorFree, Free.self)(allocator!, cName!) }
            return String(cString: cName!)
        }
    }

    /// Runs the model on `inputs` (in the model's input order) and returns every output.
    func run(_ inputs: [Tensor]) async throws -> [String: Tensor] {
        await turn.wait()
        do {
            try Task.checkCancellation()
            let outputs = try runNow(inputs)
            await turn.signal()
            return outputs
        } catch {
            await turn.signal()
            throw error
        }
    }

    private func runNow(_ inputs: [Tensor]) throws -> [String: Tensor] {
        guard inputs.count == inputNames.count else {
            throw VeilError.inference("model takes \(inputNames.count) inputs, given \(inputs.count)")
        }
        typealias MakeTensor = @convention(c) (OpaquePointer, UnsafeMutableRawPointer, Int, UnsafePointer<Int64>, Int, Int32, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
        typealias Run = @convention(c) (OpaquePointer, OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<OpaquePointer?>, Int, UnsafePointer<UnsafePointer<CChar>?>, Int, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?

        var buffers = inputs.map { $0.values }
        var values = [OpaquePointer?](repeating: nil, count: inputs.count)
        defer { values.forEach { api.release(ORTAPI.Index.releaseValue, $0) } }
        var outputs = [OpaquePointer?](repeating: nil, count: outputNames.count)
        defer { outputs.forEach { api.release(ORTAPI.Index.releaseValue, $0) } }

        return try withCStrings(inputNames) { inNames in
            try withCStrings(outputNames) { outNames in
                for i in inputs.indices {
                    let shape = inputs[i].shape.map(Int64.init)
                    try buffers[i].withUnsafeMutableBytes { raw in
                        try api.check(api.fn(ORTAPI.Index.createTensorWithDataAsOrtValue, MakeTensor.self)(
                            memoryInfo, raw.baseAddress!, raw.count, shape, shape.count, 1, &values[i]))
                    }
                }
                try api.check(api.fn(ORTAPI.Index.run, Run.self)(
                    session, nil, inNames, values, values.count, outNames, outputNames.count, &outputs))
                // Keep the input buffers alive until the run has finished.
                withExtendedLifetime(buffers) {}
                var result: [String: Tensor] = [:]
                for (i, name) in outputNames.enumerated() {
                    result[name] = try tensor(from: outputs[i]!)
                }
                return result
            }
        }
    }

    private func tensor(from value: OpaquePointer) throws -> Tensor {
        typealias ShapeInfo = @convention(c) (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
        typealias DimCount = @convention(c) (OpaquePointer, UnsafeMutablePointer<Int>) -> OpaquePointer?
        typealias Dims = @convention(c) (OpaquePointer, UnsafeMutablePointer<Int64>, Int) -> OpaquePointer?
        typealias Data = @convention(c) (OpaquePointer, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> OpaquePointer?
        var info: OpaquePointer?
        try api.check(api.fn(ORTAPI.Index.getTensorTypeAndShape, ShapeInfo.self)(value, &info))
        defer { api.release(ORTAPI.Index.releaseTensorTypeAndShapeInfo, info) }
        var count = 0
        try api.check(api.fn(ORTAPI.Index.getDimensionsCount, DimCount.self)(info!, &count))
        var dims = [Int64](repeating: 0, count: count)
        try api.check(api.fn(ORTAPI.Index.getDimensions, Dims.self)(info!, &dims, count))
        let shape = dims.map(Int.init)
        var data: UnsafeMutableRawPointer?
        try api.check(api.fn(ORTAPI.Index.getTensorMutableData, Data.self)(value, &data))
        let n = shape.reduce(1, *)
        let floats = UnsafeBufferPointer(start: data!.assumingMemoryBound(to: Float.self), count: n)
        return Tensor(shape: shape, values: Array(floats))
    }
}

/// Calls `body` with a C array of C strings that lives for the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R) rethrows -> R {
    let duplicated = strings.map { UnsafePointer(strdup($0)) }
    defer { duplicated.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return try duplicated.withUnsafeBufferPointer { try body($0.baseAddress!) }
}
