import VeilKit
import XCTest

/// The named patterns on readings as the recogniser gives them: what each
/// covers and what it leaves.
final class TextMatchTests: XCTestCase {
    func testPlatesCoverPlatesOfEveryShapeAndLeaveSigns() throws {
        let plates = try TextMatch("plates")
        for reading in ["AB12 CDE", "M-AB 1234", "7ABC123", "AB-123-CD", "EN194MC", "ab12 cde", "PASSAT CC", "Passat CC", "VW GOLF", "B·XY 77"] {
            XCTAssertTrue(plates.matches(reading), "a plate left: \(reading)")
        }
        for reading in ["BIANCHETTI", "CLIO", "BUS STOP", "OPEN", "12.99", "0161 496 0123", "Fresh bread today", "KEEP LEFT", "A", "ABCDEFGHIJKL"] {
            XCTAssertFalse(plates.matches(reading), "not a plate: \(reading)")
        }
    }

    func testEmailsAndPhonesAndExpressions() throws {
        XCTAssertTrue(try TextMatch("emails").matches("write to books12@post.org today"))
        XCTAssertFalse(try TextMatch("emails").matches("books at post dot org"))
        XCTAssertTrue(try TextMatch("phones").matches("+44 20 7946 0123"))
        XCTAssertFalse(try TextMatch("phones").matches("AB12 CDE"))
        XCTAssertTrue(try TextMatch("bian").matches("BIANCHETTI"), "expressions are case-insensitive")
        XCTAssertThrowsError(try TextMatch("(unclosed"))
    }
}
