import Foundation
import VeilKit
import XCTest

/// `POST /v1/blur` on a crowd whose editing state is too large for a header:
/// the state is never absent in silence. The answer says why it is not in
/// `X-Veil-State` and names a handle it is kept under, which the client reads
/// and edits as it would a state kept with `keep=1`.
final class LargeStateTests: XCTestCase {
    func testACrowdsStateIsKeptUnderAHandleAndSaidSo() throws {
        let scratch = try TestData.scratch(self)
        let url = scratch.appendingPathComponent("crowd.jpg")
        try ImageEncoder(format: .jpeg).write(try TestImages.crowd(columns: 10, rows: 8), to: url)
        let photo = try Data(contentsOf: url)
        let server = try ServeProcess(self, ["--timeout", "300"])  // 1600x1280: slow in a debug build on two cores

        let first = try server.request("POST", "/v1/blur", body: photo, timeout: 320)
        XCTAssertEqual(first.status, 200, first.text)
        XCTAssertNil(first.headers["x-veil-state"])
        let why = try XCTUnwrap(first.headers["x-veil-state-omitted"], "the state is left out without a word")
        XCTAssertTrue(why.contains("over the 12000 a header carries"), why)
        let handle = try XCTUnwrap(first.headers["x-veil-state-handle"])
        XCTAssertEqual(first.headers["x-veil-state-url"], "/v1/state/\(handle)")

        // What it was told is enough to read the state: every face the answer covered.
        let kept = try server.request("GET", "/v1/state/\(handle)")
        XCTAssertEqual(kept.status, 200, kept.text)
        let state = try EditingState.decode(kept.body)
        guard case let .recognized(_, faces) = state.faces else { return XCTFail("the kept state has no faces: \(state.faces)") }
        XCTAssertGreaterThan(try state.encoded().base64EncodedString().utf8.count, 12_000, "the crowd is too small to test the limit")
        XCTAssertEqual(first.headers["x-veil-covered"], String(faces.count))
        XCTAssertEqual(state.source.sha256, first.headers["x-veil-sha256"])

        // ... and to edit it: three faces uncovered under the same handle, nothing detected again.
        let edited = try server.request("POST", "/v1/blur?handle=\(handle)&drop=0,1,2", body: photo, timeout: 320)
        XCTAssertEqual(edited.status, 200, edited.text)
        XCTAssertEqual(edited.headers["x-veil-detector"], "reused")
        XCTAssertEqual(edited.headers["x-veil-covered"], String(faces.count - 3))
        XCTAssertEqual(edited.headers["x-veil-state-handle"], handle)
        XCTAssertNotNil(edited.headers["x-veil-state-omitted"])
        guard case let .confirmed(regions) = try EditingState.decode(server.request("GET", "/v1/state/\(handle)").body).regions else {
            return XCTFail("the kept state lost the edit")
        }
        XCTAssertEqual(regions.count, faces.count - 3)
    }
}
