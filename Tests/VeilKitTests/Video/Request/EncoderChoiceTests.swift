@testable import VeilKit
import XCTest

/// The encoder and pixel format, chosen in Swift from what this FFmpeg has.
final class EncoderChoiceTests: XCTestCase {
    func testLibx264In420WhereTheSizeAllowsAnd444ForOddSizes() throws {
        XCTAssertEqual(try EncoderChoice(asked: nil, width: 640, height: 360), EncoderChoice(encoder: "libx264", pixelFormat: "yuv420p"))
        XCTAssertEqual(try EncoderChoice(asked: nil, width: 641, height: 360).pixelFormat, "yuv444p", "4:2:0 cannot carry an odd width")
        // FFmpeg's own MPEG-4 encoder lists 4:2:0 alone.
        XCTAssertEqual(try EncoderChoice(asked: "mpeg4", width: 641, height: 361).pixelFormat, "yuv420p")
        XCTAssertEqual(EncoderChoice.pixelFormat(encoder: "png", width: 640, height: 360), "rgb24", "else the encoder's first format")
    }

    func testAnUnknownEncoderIsRefusedNamingIt() {
        XCTAssertThrowsError(try EncoderChoice(asked: "nosuchcodec", width: 64, height: 64)) { error in
            XCTAssertTrue("\(error)".contains("unknown video codec 'nosuchcodec'"), "\(error)")
        }
        XCTAssertThrowsError(try EncoderChoice(asked: "aac", width: 64, height: 64), "an audio encoder is not a video one")
    }
}
