import Foundation
import VeilKit

/// Two people standing apart: the sample photo's astronaut on the left and
/// the same photo mirrored on the right, a gap of 256 pixels between them
/// (1280x512 PNG) in a fine grey checkerboard, which any cover would change
/// (a flat grey comes out of a mosaic or a blur as it went in). What the
/// person tests separate and cover.
public struct PeopleScene: Sendable {
    public var url: URL
    public var size: PixelSize
    /// Each person's face (pixels, origin top-left), left then right.
    public var faces: [ImageRect]
    /// The gap between them, where nobody is: a cover must leave it as it was
    /// (but for its margin beyond a silhouette, `PeopleCovering.margin`).
    public var gap: PixelRect
    /// The gap less 1/50 of the width on each side: what even the margin leaves.
    public var gapAwayFromPeople: ImageRect {
        let inset = Double(size.width) / 50
        return ImageRect(x: Double(gap.x) + inset, y: 0, width: Double(gap.width) - 2 * inset, height: Double(gap.height))
    }

    public static func twoApart(in dir: URL) throws -> PeopleScene {
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image.srgb8()
        let pixels = try photo.pixelBytes(), side = photo.width
        let width = 2 * side + 256, height = side
        var canvas = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in side..<(side + 256) {
                let v: UInt8 = (x / 2 + y / 2) % 2 == 0 ? 96 : 160
                for c in 0..<3 { canvas[(y * width + x) * 3 + c] = v }
            }
        }
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
