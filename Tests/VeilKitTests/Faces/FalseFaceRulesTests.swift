@testable import VeilKit
import XCTest

/// The two rules that keep privacy thresholds from covering patterns.
final class FalseFaceRulesTests: XCTestCase {
    private func face(_ x: Double, _ y: Double, _ side: Double, _ score: Float) -> DetectedFace {
        DetectedFace(box: ImageRect(x: x, y: y, width: side, height: side), score: score, landmarks: [])
    }

    /// A weak large box over a crowd's faces goes; a confident face holding
    /// weak false sightings (its eyes) stays; so does a face holding one.
    func testAFaceHoldingStrongerFacesIsDropped() {
        let crowd = [face(100, 100, 200, 0.07), face(120, 120, 20, 0.9), face(200, 150, 20, 0.6), face(250, 250, 22, 0.3)]
        XCTAssertEqual(droppingFacesThatHoldFaces(crowd).map(\.score), [0.9, 0.6, 0.3])
        let near = [face(100, 100, 200, 0.95), face(140, 150, 20, 0.1), face(220, 150, 20, 0.2)]
        XCTAssertEqual(droppingFacesThatHoldFaces(near).count, 3)
        let one = [face(100, 100, 200, 0.07), face(120, 120, 20, 0.9), face(400, 400, 20, 0.9)]
        XCTAssertEqual(droppingFacesThatHoldFaces(one).count, 3)
    }

    /// With `largeFaceSide`, a face larger than it in network pixels must
    /// score the threshold times its size over it (at most 0.3); without it,
    /// the threshold alone.
    func testLargeFacesNeedHigherScores() {
        var request = DetectFaceRectanglesRequest.privacy(.retinaFace)
        request.confidenceThreshold = 0.08
        XCTAssertTrue(request.holdsItsScore(face(0, 0, 100, 0.2), scale: 1))
        request.largeFaceSide = 32
        XCTAssertFalse(request.holdsItsScore(face(0, 0, 100, 0.2), scale: 1), "100 px needs 0.25")
        XCTAssertTrue(request.holdsItsScore(face(0, 0, 100, 0.26), scale: 1))
        XCTAssertTrue(request.holdsItsScore(face(0, 0, 100, 0.2), scale: 0.5), "50 network px need 0.125")
        XCTAssertTrue(request.holdsItsScore(face(0, 0, 20, 0.08), scale: 1))
        XCTAssertFalse(request.holdsItsScore(face(0, 0, 400, 0.29), scale: 1), "capped at 0.3")
        XCTAssertTrue(request.holdsItsScore(face(0, 0, 400, 0.3), scale: 1))
    }
}
