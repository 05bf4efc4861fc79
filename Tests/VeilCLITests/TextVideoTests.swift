import Foundation
import VeilKit
import XCTest

/// `veil video --cover text`: a plate passing by stays covered, detected
/// every other frame and carried between by the text tracker.
final class TextVideoTests: XCTestCase {
    private func frames(_ url: URL, width: Int, height: Int, in dir: URL) throws -> [[UInt8]] {
        let raw = dir.appendingPathComponent(url.lastPathComponent + ".rgb")
        try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        let bytes = [UInt8](try Data(contentsOf: raw)), size = width * height * 3
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    private func change(_ a: [UInt8], _ b: [UInt8], width: Int, in r: PixelRect) -> Double {
        var sum = 0, n = 0
        for y in r.y..<(r.y + r.height) { for x in r.x..<(r.x + r.width) { for k in 0..<3 {
            sum += abs(Int(a[(y * width + x) * 3 + k]) - Int(b[(y * width + x) * 3 + k])); n += 1
        } } }
        return Double(sum) / Double(max(1, n))
    }

    func testPlateMovingAcrossTheFrameStaysCovered() throws {
        let dir = try TestData.scratch(self)
        let scene = try TextScene.car(in: dir)
        let background = try ImageDecoder().decode(.url(TestData.sharedData("subjects-dev/images/car-roundabout-00000.jpg"))).image.srgb8()
        let board = scene.plate.rect.integral
        let padded = PixelRect(x: board.x - 4, y: board.y - 4, width: board.width + 8, height: board.height + 8)
        let plate = try ImageDecoder().decode(.url(scene.url)).image.srgb8().cropped(to: padded)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let clip = try TestClip(path: input.path, width: 854, height: 480, fps: 25, audio: .none)
        let count = 16, y = 400
        let xs = (0..<count).map { 60 + $0 * 40 }
        for x in xs { try clip.add(background.inserting(plate, x: x, y: y)) }
        try clip.close()

        let result = try Veil.run(["video", input.path, "-o", output.path, "--cover", "text", "--detect-every", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let before = try frames(input, width: 854, height: 480, in: dir), after = try frames(output, width: 854, height: 480, in: dir)
        XCTAssertEqual(before.count, count)
        XCTAssertEqual(after.count, count)
        for (i, x) in xs.enumerated() {
            // The central half of the plate's lettering, where it is in this frame.
            let core = PixelRect(x: x + 4 + board.width / 4, y: y + 4 + board.height / 4, width: board.width / 2, height: board.height / 2)
            XCTAssertGreaterThan(change(before[i], after[i], width: 854, in: core), 15, "frame \(i): the plate at x \(x) is not covered")
            // The road below it is left alone.
            XCTAssertLessThan(change(before[i], after[i], width: 854, in: PixelRect(x: 300, y: 440, width: 300, height: 30)), 3, "frame \(i)")
        }
    }
}
