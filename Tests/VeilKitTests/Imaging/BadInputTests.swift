import Foundation
import VeilKit
import XCTest

/// Inputs that are not usable images each give one clear `VeilError`, quickly,
/// without decoding what would exhaust memory.
final class BadInputTests: XCTestCase {
    private func expectError(_ source: ImageSource, contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try ImageDecoder().decode(source).image.pixelBytes()
            XCTFail("decoded a bad input", file: file, line: line)
        } catch let error as VeilError {
            XCTAssertTrue(error.description.lowercased().contains(text), "\(error)", file: file, line: line)
            XCTAssertFalse(error.description.contains("\n"), "one line: \(error)", file: file, line: line)
        } catch {
            XCTFail("not a VeilError: \(error)", file: file, line: line)
        }
    }

    func testEmptyFile() throws {
        let dir = try TestData.scratch(self)
        expectError(.url(try TestImages.file("empty.jpg", [], in: dir)), contains: "empty")
        expectError(.data(Data()), contains: "no bytes")
    }

    func testTruncatedJPEG() throws {
        let dir = try TestData.scratch(self)
        let whole = try ImageEncoder(format: .jpeg).encode(ImageDecoder().decode(.url(TestData.astronaut())).image)
        let cut = try TestImages.file("cut.jpg", [UInt8](whole.prefix(whole.count / 2)), in: dir)
        expectError(.url(cut), contains: "not a decodable image")
    }

    func testTextFile() throws {
        let dir = try TestData.scratch(self)
        expectError(.url(try TestImages.file("notes.jpg", Array("hello, not an image\n".utf8), in: dir)), contains: "not a decodable image")
    }

    /// A valid PNG header claiming 30000x30000 pixels is refused from its header.
    func testHugeImageRefusedBeforeDecoding() throws {
        let dir = try TestData.scratch(self)
        let url = try TestImages.file("huge.png", TestImages.pngHeader(width: 30000, height: 30000), in: dir)
        expectError(.url(url), contains: "over the limit")
    }

    func testMissingPathAndDirectory() throws {
        let dir = try TestData.scratch(self)
        expectError(.url(dir.appendingPathComponent("nothing-here.jpg")), contains: "no such file")
        expectError(.url(dir), contains: "is a directory")
    }
}
