import Foundation
import VeilKit
import XCTest

/// The tests' photos with text. `street`: the sample photo with a shop sign
/// (BIANCHETTI) on a board and a plate-like board (AB 123 CD) rendered by
/// bench/text_devset.py in DejaVu, so every text test runs from a fresh clone.
/// `realCar`: DAVIS's car-roundabout frame from ../shared, a real street with
/// the car's own plate (EN194MC) and its badge (CLIO) as the text that is not
/// a plate.
public struct TextScene: Sendable {
    public struct Label: Decodable, Sendable {
        public var box: [Double]
        public var text: String
        public var rect: ImageRect { ImageRect(x: box[0], y: box[1], width: box[2], height: box[3]) }
    }

    public var url: URL
    public var size: PixelSize
    public var plate: Label
    /// Text that is not a plate.
    public var sign: Label
    /// A part of the photo with no text and no face: what no cover should change.
    public var elsewhere: ImageRect

    private struct Labels: Decodable { var plate: Label; var sign: Label; var elsewhere: Label }

    /// Renders the street scene into `dir`; skips without the text models, the fonts or Python's Pillow.
    public static func street(in dir: URL) throws -> TextScene {
        try TestData.requireFaceModel([.textDetector, .textRecognizer, .textOrientation])
        let url = dir.appendingPathComponent("street-text.jpg")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestData.repoRoot.appendingPathComponent("bench/text_devset.py").path,
                             "--scene", "street", try TestData.astronaut().path, url.path]
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if failure.contains("No module named 'PIL'") { throw XCTSkip("Python's Pillow is not installed (it renders the test's text): run scripts/test") }
        guard process.terminationStatus == 0 else { throw XCTSkip("bench/text_devset.py failed: \(failure)") }
        let labels = try JSONDecoder().decode(Labels.self, from: printed)
        return TextScene(url: url, size: PixelSize(width: 512, height: 512), plate: labels.plate, sign: labels.sign,
                         elsewhere: labels.elsewhere.rect)
    }

    /// The real car (needs dev data): ink boxes measured on the frame by eye and by `veil text`.
    public static func realCar() throws -> TextScene {
        try TestData.requireFaceModel([.textDetector, .textRecognizer, .textOrientation])
        let url = try TestData.sharedData("subjects-dev/images/car-roundabout-00070.jpg")
        return TextScene(url: url, size: PixelSize(width: 854, height: 480),
                         plate: Label(box: [270, 309, 39, 15], text: "EN194MC"),
                         sign: Label(box: [736, 405, 52, 24], text: "CLIO"),
                         elsewhere: ImageRect(x: 380, y: 380, width: 250, height: 80))
    }
}
