/// A frame shrunk to about 240 pixels on its long side, in grey levels: what
/// registration and cut detection read. Its cost is the same for every frame
/// size (each thumbnail pixel averages at most 4x4 samples of its cell), so
/// following the camera stays a small, fixed share of a frame's time.
struct GreyThumbnail {
    let width: Int, height: Int
    /// Frame pixels per thumbnail pixel, along each side.
    let factor: Int
    var pixels: [UInt8]

    static let longSide = 240

    /// From 8-bit RGB (3 bands) of `width`x`height`.
    init(rgb: UnsafeBufferPointer<UInt8>, width frameWidth: Int, height frameHeight: Int) {
        let f = max(1, Int((Double(max(frameWidth, frameHeight)) / Double(Self.longSide)).rounded()))
        factor = f
        width = max(1, frameWidth / f); height = max(1, frameHeight / f)
        let samples = min(f, 4), step = f / samples
        let count = samples * samples
        var out = [UInt8](repeating: 0, count: width * height)
        let (w, h, rowBytes) = (width, height, frameWidth * 3)
        out.withUnsafeMutableBufferPointer { dst in
            for ty in 0..<h {
                for tx in 0..<w {
                    var sum = 0
                    for sy in 0..<samples {
                        let row = (ty * f + sy * step) * rowBytes
                        for sx in 0..<samples {
                            let p = row + (tx * f + sx * step) * 3
                            sum += 77 * Int(rgb[p]) + 150 * Int(rgb[p + 1]) + 29 * Int(rgb[p + 2])
                        }
                    }
                    dst[ty * w + tx] = UInt8(truncatingIfNeeded: sum / (count * 256))
                }
            }
        }
        pixels = out
    }

    /// Half the size, each pixel the mean of four.
    init(halving t: GreyThumbnail) {
        factor = t.factor * 2
        width = max(1, t.width / 2); height = max(1, t.height / 2)
        var out = [UInt8](repeating: 0, count: width * height)
        let (w, h, sw) = (width, height, t.width)
        t.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let r0 = 2 * y * sw, r1 = min(2 * y + 1, t.height - 1) * sw
                    for x in 0..<w {
                        let x1 = min(2 * x + 1, sw - 1)
                        let s = Int(src[r0 + 2 * x]) + Int(src[r0 + x1]) + Int(src[r1 + 2 * x]) + Int(src[r1 + x1])
                        dst[y * w + x] = UInt8(truncatingIfNeeded: (s + 2) / 4)
                    }
                }
            }
        }
        pixels = out
    }

    /// The grey levels' histogram in 32 bins, as shares of the pixels.
    var histogram: [Double] {
        var bins = [Int](repeating: 0, count: 32)
        for p in pixels { bins[Int(p) >> 3] += 1 }
        let n = Double(max(1, pixels.count))
        return bins.map { Double($0) / n }
    }
}
