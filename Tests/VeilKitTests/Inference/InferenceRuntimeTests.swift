import Foundation
@testable import VeilKit
import XCTest

final class InferenceRuntimeTests: XCTestCase {
    /// Four first callers of one model at once (no lock is held while it
    /// loads, so several may load it): all get the same session, and one is kept.
    func testRacingFirstCallersShareOneSession() async throws {
        try TestData.requireFaceModel()
        let runtime = try InferenceRuntime.shared()
        let device = ComputeDevice.cpu(threads: 3)  // a key no other test uses
        let before = runtime.sessionCount
        let sessions = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<4 { group.addTask { ObjectIdentifier(try runtime.session(for: .retinaFace, device: device)) } }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        XCTAssertEqual(sessions.count, 1)
        XCTAssertEqual(runtime.sessionCount, before + 1)
    }
}
