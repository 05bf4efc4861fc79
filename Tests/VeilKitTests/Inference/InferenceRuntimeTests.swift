import Foundation
import Synchronization
@testable import VeilKit
import XCTest

final class InferenceRuntimeTests: XCTestCase {
    /// Four first callers of one model at once: the model is read, checked,
    /// prepared and loaded once (the others wait for it), and all get that session.
    func testRacingFirstCallersShareOneSession() async throws {
        try TestData.requireFaceModel()
        let runtime = try InferenceRuntime.shared()
        let device = ComputeDevice.cpu(threads: 3)  // a key no other test uses
        let before = Self.unprepared(runtime, variant: "race")
        let prepared = Counter()
        let sessions = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    ObjectIdentifier(try await runtime.session(for: .retinaFace, variant: "race", device: device, prepare: { prepared.add(); return $0 }))
                }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        XCTAssertEqual(sessions.count, 1)
        XCTAssertEqual(prepared.value, 1)
        XCTAssertEqual(runtime.sessionCount, before + 1)
    }

    /// No entry in the prepared-model cache from an earlier run for RetinaFace's
    /// `variant`, so the model is prepared here; the sessions open now.
    private static func unprepared(_ runtime: InferenceRuntime, variant: String) -> Int {
        try? FileManager.default.removeItem(at: runtime.cache.folder.appendingPathComponent(runtime.cache.name(of: .retinaFace, variant: variant)))
        return runtime.sessionCount
    }

    /// A count several tasks add to.
    private final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A load that fails is not kept: its caller gets the error, and the next
    /// caller of that model loads it afresh.
    func testAFailedLoadLeavesTheModelToTheNextCaller() async throws {
        try TestData.requireFaceModel()
        let runtime = try InferenceRuntime.shared()
        let device = ComputeDevice.cpu(threads: 6)  // a key no other test uses
        let before = Self.unprepared(runtime, variant: "retry")
        struct Refused: Error {}
        do {
            _ = try await runtime.session(for: .retinaFace, variant: "retry", device: device, prepare: { _ in throw Refused() })
            XCTFail("the load did not fail")
        } catch is Refused {}
        XCTAssertEqual(runtime.sessionCount, before)
        let prepared = Counter()
        _ = try await runtime.session(for: .retinaFace, variant: "retry", device: device, prepare: { prepared.add(); return $0 })
        XCTAssertEqual(prepared.value, 1)
        XCTAssertEqual(runtime.sessionCount, before + 1)
    }

    /// A prepared request has its session open: its first detection opens none.
    func testAPreparedRequestsFirstDetectionOpensNoSession() async throws {
        try TestData.requireFaceModel()
        let runtime = try InferenceRuntime.shared()
        var request = DetectFaceRectanglesRequest.privacy(.retinaFace)
        request.computeDevice = .cpu(threads: 5)  // a key no other test uses
        let before = runtime.sessionCount
        try await request.prepare()
        XCTAssertEqual(runtime.sessionCount, before + 1)
        let image = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let faces = try await request.perform(on: image)
        XCTAssertEqual(faces.count, 1)
        XCTAssertEqual(runtime.sessionCount, before + 1)
    }

    /// A session of one thread a run lets every core run one at once (`--threads 1
    /// --jobs 2` runs two passes side by side), one of a thread per core only one;
    /// runs side by side find what one run alone finds.
    func testRunsAtOnceFillTheCoresAndAgree() async throws {
        try TestData.requireFaceModel()
        XCTAssertEqual(InferenceSession.runsAtOnce(threads: 1, cores: 2), 2)
        XCTAssertEqual(InferenceSession.runsAtOnce(threads: 2, cores: 8), 4)
        XCTAssertEqual(InferenceSession.runsAtOnce(threads: 3, cores: 2), 1)
        let runtime = try InferenceRuntime.shared()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let oneThreadARun = try await CenterFace.load(runtime: runtime, device: .cpu(threads: 1), precision: .float)
        let threadACore = try await CenterFace.load(runtime: runtime, device: .cpu(threads: cores), precision: .float)
        XCTAssertEqual(oneThreadARun.session.runsAtOnce, cores)
        XCTAssertEqual(threadACore.session.runsAtOnce, 1)

        var request = DetectFaceRectanglesRequest()
        request.computeDevice = .cpu(threads: 1)
        request.precision = .float
        let url = try TestData.astronaut()
        let alone = try await request.perform(on: url)
        XCTAssertEqual(alone.count, 1)
        let oneThread = request
        let together = try await withThrowingTaskGroup(of: [FaceObservation].self) { group in
            for _ in 0..<4 { group.addTask { try await oneThread.perform(on: url) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for faces in together { XCTAssertEqual(faces, alone) }
    }
}
