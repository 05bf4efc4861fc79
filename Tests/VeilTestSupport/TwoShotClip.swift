import Foundation
import VeilKit

/// One person filmed in two shots, another beside her in the second: the
/// astronaut large on the left, then after a hard cut smaller on the right
/// with the cameraman on the left, on grey (768x432, 12 frames a shot), made
/// from the sample photos. For the people's tests (`VideoPeopleTests`, the
/// Video tab's person tool), which judge each face's pixels.
public enum TwoShotClip {
    public static let (width, height, shot) = (768, 432, 12)
    /// Where each face is: the astronaut's sample face (180,62,92,116 of 512) and the
    /// cameraman's (195,114,61,81 of 512) scaled and placed as `frame(_:)` draws them.
    public static let astronautFirst = PixelRect(x: 100 + 152, y: 52, width: 78, height: 98)
    public static let astronautSecond = PixelRect(x: 440 + 105, y: 100 + 36, width: 54, height: 68)
    public static let cameraman = PixelRect(x: 20 + 152, y: 16 + 89, width: 48, height: 64)

    /// The clip, written to `url` (every frame lossless enough for the pixels to be judged).
    public static func make(at url: URL) throws {
        func photo(_ asset: Asset, side: Int) throws -> VeilImage {
            try ImageDecoder().decode(.url(TestData.sample(asset))).image.srgb8().resized(width: side, height: side)
        }
        let (large, small, man) = (try photo(.astronaut, side: 432), try photo(.astronaut, side: 300), try photo(.cameraman, side: 400))
        let clip = try TestClip(path: url.path, width: width, height: height, fps: 25, audio: .none)
        for f in 0..<2 * shot {
            let canvas = try Canvas(try VeilImage.constant(RGB(110, 110, 110), size: PixelSize(width: width, height: height)))
            if f < shot {
                try canvas.paste(large, x: 100, y: 0)
            } else {
                try canvas.paste(man, x: 20, y: 16)
                try canvas.paste(small, x: 440, y: 100)
            }
            try clip.add(try canvas.image)
        }
        try clip.close()
    }

    /// Every frame of `video`, grey.
    public static func greyFrames(_ video: URL) throws -> [[UInt8]] {
        let raw = video.deletingPathExtension().appendingPathExtension("\(UUID().uuidString).grey")
        defer { try? FileManager.default.removeItem(at: raw) }
        try FFmpegTool.run("ffmpeg", ["-i", video.path, "-f", "rawvideo", "-pix_fmt", "gray", raw.path])
        let data = [UInt8](try Data(contentsOf: raw)), size = width * height
        return stride(from: 0, to: data.count, by: size).map { Array(data[$0..<$0 + size]) }
    }

    /// Mean absolute difference of two grey frames over the central half of `box`.
    public static func change(_ a: [UInt8], _ b: [UInt8], in box: PixelRect) -> Double {
        var sum = 0, n = 0
        for y in box.y + box.height / 4..<box.y + 3 * box.height / 4 {
            for x in box.x + box.width / 4..<box.x + 3 * box.width / 4 { sum += abs(Int(a[y * width + x]) - Int(b[y * width + x])); n += 1 }
        }
        return Double(sum) / Double(max(1, n))
    }
}
