import Foundation
import VeilKit
import XCTest

/// `-` for standard input and output: one photo in, one out, no state kept.
final class StandardStreamTests: XCTestCase {
    /// `veil ARGS < input > output` through the shell, as a user types it.
    func piped(_ args: [String], from input: URL, to output: URL) throws -> Shell.Result {
        try Shell.run(["sh", "-c", "exec \"$0\" \"$@\" < \"$VEIL_IN\" > \"$VEIL_OUT\"", Veil.binary.path] + args,
                      environment: ProcessInfo.processInfo.environment.merging(["VEIL_IN": input.path, "VEIL_OUT": output.path]) { $1 })
    }

    func testBlurRoundTripsAJPEGThroughStandardStreams() throws {
        try TestData.requireFaceModel([.centerFace])
        let dir = try TestData.scratch(self)
        let photo = dir.appendingPathComponent("astronaut.jpg")
        try ImageEncoder(format: .jpeg, quality: 90).write(try ImageDecoder().decode(.url(TestData.astronaut())).image, to: photo)
        let piped = dir.appendingPathComponent("piped.jpg")
        let run = try self.piped(["blur", "-", "-o", "-"], from: photo, to: piped)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("standard input -> standard output  1 covered"), run.stderr)
        let decoded = try ImageDecoder().decode(.url(piped))
        XCTAssertEqual(decoded.format, .jpeg)
        XCTAssertEqual(decoded.image.size, PixelSize(width: 512, height: 512))
        XCTAssertGreaterThan(try TestImages.meanAbsoluteDifference(decoded.image, try ImageDecoder().decode(.url(photo)).image), 0.3, "nothing covered")
        // The same bytes as the file path writes, and no editing state beside anything.
        let file = dir.appendingPathComponent("file.jpg")
        XCTAssertEqual(try Veil.run(["blur", photo.path, "-o", file.path]).status, 0)
        XCTAssertEqual(try Data(contentsOf: piped), try Data(contentsOf: file))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(names, ["astronaut.jpg", "file.jpg", "file.jpg.veil.json", "piped.jpg"])
        // A file's output to standard output; standard input to a file in the format its name says.
        let out = dir.appendingPathComponent("out.png")
        XCTAssertEqual(try self.piped(["blur", photo.path, "-o", "-"], from: photo, to: dir.appendingPathComponent("to-stdout.jpg")).status, 0)
        XCTAssertEqual(try self.piped(["blur", "-", "-o", out.path], from: photo, to: dir.appendingPathComponent("nothing")).status, 0)
        XCTAssertEqual(try ImageDecoder().decode(.url(out)).format, .png)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("nothing")).count, 0)
    }

    func testLiftThroughStandardStreams() throws {
        try TestData.requireFaceModel([.u2netp])
        let dir = try TestData.scratch(self)
        let cut = dir.appendingPathComponent("cut.png")
        let run = try piped(["lift", "-", "-o", "-"], from: try TestData.astronaut(), to: cut)
        XCTAssertEqual(run.status, 0, run.stderr)
        let decoded = try ImageDecoder().decode(.url(cut))
        XCTAssertEqual(decoded.format, .png)
        XCTAssertTrue(decoded.image.hasAlpha)
    }

    func testDashIsRefusedWhereItCannotMeanOneImage() throws {
        let dir = try TestData.scratch(self)
        let photo = try TestImages.file("a.png", [0x89, 0x50], in: dir)
        for args in [["blur", "-", "--out-dir", dir.path], ["blur", "-", photo.path], ["blur", photo.path, "-o", "-", "--state", "s.json"],
                     ["blur", "-", "--preview"], ["lift", "-", "--out-dir", dir.path], ["lift", "-", "-o", "-", "--json"]] {
            let run = try piped(args, from: photo, to: dir.appendingPathComponent("out"))
            XCTAssertEqual(run.status, 2, "\(args): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "\(args): \(run.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["a.png", "out"])
    }
}
