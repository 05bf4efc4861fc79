import Foundation
import VeilKit
import XCTest

/// The tests' photo with text: DAVIS's car-roundabout frame from ../shared (a
/// real street, with the shop sign BIANCHETTI) with a plate-like board
/// rendered over the car's own front plate by bench/text_devset.py.
public struct TextScene: Sendable {
    public struct Label: Decodable, Sendable {
        public var box: [Double]
        public var text: String
        public var rect: ImageRect { ImageRect(x: box[0], y: box[1], width: box[2], height: box[3]) }
    }

    public var url: URL
    public var plate: Label
    public var sign: Label

    private struct Labels: Decodable { var plate: Label; var sign: Label }

    /// Renders the photo into `dir`; skips without ../shared, the text models or Python's Pillow.
    public static func car(in dir: URL) throws -> TextScene {
        try TestData.requireFaceModel([.textDetector, .textRecognizer, .textOrientation])
        let data = try TestData.sharedData("subjects-dev").deletingLastPathComponent()
        let url = dir.appendingPathComponent("car-plate.jpg")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestData.repoRoot.appendingPathComponent("bench/text_devset.py").path, "--scene", "car", data.path, url.path]
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if failure.contains("No module named 'PIL'") { throw XCTSkip("Python's Pillow is not installed (it renders the test's plate)") }
        guard process.terminationStatus == 0 else { throw XCTSkip("bench/text_devset.py failed: \(failure)") }
        let labels = try JSONDecoder().decode(Labels.self, from: printed)
        return TextScene(url: url, plate: labels.plate, sign: labels.sign)
    }
}
