import Foundation
import VeilKit
import XCTest

/// Every format Veil writes (JPEG, PNG, WebP, HEIC, AVIF, TIFF, GIF, BMP) is read back, with the face found in each.
final class FormatTests: XCTestCase {
    func testEveryFormatRoundTripsWithItsFace() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let image = try ImageDecoder().decode(.url(TestData.astronaut())).image
        for format in EncodedFormat.allCases {
            let url = dir.appendingPathComponent("a.\(format.fileExtension)")
            try ImageEncoder(format: format, quality: 92).write(image, to: url)
            let decoded = try ImageDecoder().decode(.url(url))
            // GIF and BMP come back as PNG when no name says otherwise, AVIF as HEIF (libvips reads both with one loader).
            XCTAssertEqual(decoded.format, [.gif: .png, .bmp: .png, .avif: .heif][format] ?? format, "\(format)")
            XCTAssertEqual(decoded.image.size, image.size)
            let faces = try await DetectFaceRectanglesRequest().perform(on: decoded.image)
            XCTAssertEqual(faces.count, 1, "\(format)")
        }
    }
}
