import Foundation

/// A one-channel 8-bit label image, as Vision's `instanceMask` pixel buffer:
/// 0 is background, 1...N are instances. Rows may be padded (`bytesPerRow`).
public struct InstanceLabels: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    /// `height` rows of `bytesPerRow` bytes.
    public let bytes: [UInt8]

    public init(width: Int, height: Int, bytesPerRow: Int, bytes: [UInt8]) {
        precondition(bytesPerRow >= width && bytes.count >= bytesPerRow * height)
        self.width = width; self.height = height; self.bytesPerRow = bytesPerRow; self.bytes = bytes
    }

    /// The label at pixel (x, y), origin top-left; nil outside the image.
    public func label(x: Int, y: Int) -> Int? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return Int(bytes[y * bytesPerRow + x])
    }
}

/// One instance: its label, its area in pixels, and its bounding box.
public struct InstanceInfo: Sendable, Hashable, Codable {
    public let label: Int
    /// Pixels labelled with this instance (above the foreground threshold).
    public let area: Int
    /// The smallest rectangle holding the instance, pixels, origin top-left.
    public let boundingBox: PixelRect

    /// The same instance measured in an image of `size` rather than `from`
    /// (a mask worked out on a shrunk copy, reported in the photo's pixels).
    func scaled(from: PixelSize, to size: PixelSize) -> InstanceInfo {
        guard from != size else { return self }
        let sx = Double(size.width) / Double(from.width), sy = Double(size.height) / Double(from.height)
        let b = boundingBox
        let x0 = Int((Double(b.x) * sx).rounded(.down)), y0 = Int((Double(b.y) * sy).rounded(.down))
        let x1 = min(size.width, Int((Double(b.x + b.width) * sx).rounded(.up)))
        let y1 = min(size.height, Int((Double(b.y + b.height) * sy).rounded(.up)))
        return InstanceInfo(label: label, area: Int((Double(area) * sx * sy).rounded()),
                            boundingBox: PixelRect(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0)))
    }
}

/// Splits a thresholded foreground into numbered instances.
enum InstanceLabeling {
    /// Connected (4-neighbour) regions of `foreground` (8-bit, 255 = foreground)
    /// with at least `minimumArea` pixels, numbered 1...N by area, largest first
    /// (ties broken by position, so the numbering is deterministic). At most 255.
    static func label(foreground: VeilImage, minimumArea: Int) throws -> (labels: InstanceLabels, instances: [InstanceInfo]) {
        let w = foreground.width, h = foreground.height
        let regions = try foreground.regionLabels()
        let binary = try foreground.pixelBytes()
        guard regions.count == w * h * 4, binary.count == w * h else {
            throw VeilError.imaging("labelregions gave \(regions.count) bytes for \(w)x\(h)")
        }
        struct Tally { var area = 0, minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, first = Int.max }
        var tallies: [Tally] = []
        var regionOf = [Int32](repeating: -1, count: w * h)
        regions.withUnsafeBytes { raw in
            let ids = raw.bindMemory(to: Int32.self)
            for y in 0..<h {
                for x in 0..<w {
                    let i = y * w + x
                    guard binary[i] != 0 else { continue }
                    let id = Int(ids[i])
                    regionOf[i] = Int32(id)
                    if id >= tallies.count { tallies += repeatElement(Tally(), count: id - tallies.count + 1) }
                    tallies[id].area += 1
                    tallies[id].minX = min(tallies[id].minX, x); tallies[id].maxX = max(tallies[id].maxX, x)
                    tallies[id].minY = min(tallies[id].minY, y); tallies[id].maxY = max(tallies[id].maxY, y)
                    tallies[id].first = min(tallies[id].first, i)
                }
            }
        }
        let kept = tallies.enumerated().filter { $0.element.area >= max(1, minimumArea) }
            .sorted { $0.element.area != $1.element.area ? $0.element.area > $1.element.area : $0.element.first < $1.element.first }
            .prefix(255)
        var numberOf = [UInt8](repeating: 0, count: tallies.count)
        var instances: [InstanceInfo] = []
        for (n, (id, t)) in kept.enumerated() {
            numberOf[id] = UInt8(n + 1)
            instances.append(InstanceInfo(label: n + 1, area: t.area,
                                          boundingBox: PixelRect(x: t.minX, y: t.minY, width: t.maxX - t.minX + 1, height: t.maxY - t.minY + 1)))
        }
        var bytes = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) where regionOf[i] >= 0 {
            bytes[i] = numberOf[Int(regionOf[i])]
        }
        return (InstanceLabels(width: w, height: h, bytesPerRow: w, bytes: bytes), instances)
    }
}
