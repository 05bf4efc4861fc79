import Foundation
import VeilKit

/// Two people standing apart: the sample photo's astronaut on the left and
/// the same photo mirrored on the right, a plain grey gap of 256 pixels
/// between them (1280x512 PNG). What the person tests separate and cover.
public struct PeopleScene: Sendable {
    public var url: URL
    public var size: PixelSize
    /// Each person's face (pixels, origin top-left), left then right.
    public var faces: [ImageRect]
    /// The gap between them, where nobody is: a cover must leave it as it was.
    public var gap: PixelRect

    public static func twoApart(in dir: URL) throws -> PeopleScene {
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image.srgb8()
        let pixels = try photo.pixelBytes(), side = photo.width
        let width = 2 * side + 256, height = side
        var canvas = [UInt8](repeating: 128, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<side {
                for c in 0..<3 {
                    let v = pixels[(y * side + x) * 3 + c]
                    canvas[(y * width + x) * 3 + c] = v
                    canvas[(y * width + (width - 1 - x)) * 3 + c] = v
                }
            }
        }
        let url = dir.appendingPathComponent("two-people.png")
        try ImageEncoder(format: .png).write(try VeilImage(pixels: canvas, width: width, height: height, bands: 3), to: url)
        let face = TestData.astronautFace
        let mirrored = ImageRect(x: Double(width) - face.x - face.width, y: face.y, width: face.width, height: face.height)
        return PeopleScene(url: url, size: PixelSize(width: width, height: height), faces: [face, mirrored],
                           gap: PixelRect(x: side, y: 0, width: 256, height: height))
    }
}
