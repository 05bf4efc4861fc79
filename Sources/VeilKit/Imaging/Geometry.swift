/// Which corner of the image a coordinate is measured from. Vision's
/// normalized results use `.lowerLeft`; pixel buffers and UIs use `.upperLeft`.
public enum CoordinateOrigin: Sendable, Codable {
    case lowerLeft, upperLeft
}

/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
}

/// A rectangle in whole pixels, origin top-left.
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The part of the rectangle that lies inside an image of `size`.
    public func clamped(to size: PixelSize) -> PixelRect {
        let x0 = min(max(x, 0), size.width), y0 = min(max(y, 0), size.height)
        let x1 = min(max(x + width, 0), size.width), y1 = min(max(y + height, 0), size.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A point in [0,1] coordinates of the upright image.
public struct NormalizedPoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// The point in pixels of an image of `size`, measured from `origin`
    /// (this point itself is lower-left based, as in Vision).
    public func toImageCoordinates(_ size: PixelSize, origin: CoordinateOrigin = .lowerLeft) -> ImageRect.Point {
        let px = x * Double(size.width)
        let py = y * Double(size.height)
        return ImageRect.Point(x: px, y: origin == .lowerLeft ? py : Double(size.height) - py)
    }
}

/// A rectangle in [0,1] coordinates of the upright image, origin lower-left as in Vision.
public struct NormalizedRect: Sendable, Hashable, Codable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The rectangle in pixels of an image of `size`. With `.upperLeft` the
    /// y axis is flipped, which is what drawing and cropping libraries want.
    public func toImageCoordinates(_ size: PixelSize, origin: CoordinateOrigin = .lowerLeft) -> ImageRect {
        let w = width * Double(size.width), h = height * Double(size.height)
        let px = x * Double(size.width)
        let py = origin == .lowerLeft ? y * Double(size.height) : (1 - y - height) * Double(size.height)
        return ImageRect(x: px, y: py, width: w, height: h)
    }

    /// The normalized rectangle for a pixel rectangle measured from `origin`.
    public init(imageRect r: ImageRect, in size: PixelSize, origin: CoordinateOrigin = .lowerLeft) {
        let w = Double(size.width), h = Double(size.height)
        let ny = origin == .lowerLeft ? r.y / h : 1 - (r.y + r.height) / h
        self.init(x: r.x / w, y: ny, width: r.width / w, height: r.height / h)
    }

    /// Whether `point` (normalized, lower-left) lies inside, edges included.
    public func contains(_ point: NormalizedPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}

/// A rectangle in (fractional) pixels.
public struct ImageRect: Sendable, Hashable, Codable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var area: Double { max(0, width) * max(0, height) }

    /// Intersection over union with `other`: 0 when disjoint, 1 when equal.
    public func iou(_ other: ImageRect) -> Double {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        let inter = ix * iy
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// The overlap with `other`, nil when they do not overlap (or either is not finite).
    public func intersection(_ other: ImageRect) -> ImageRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, x1 > x0, y1 > y0 else { return nil }
        return ImageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest whole-pixel rectangle that contains this one. Coordinates
    /// are held to ±2^40 first (and NaN to 0), so no value can trap the conversion.
    public var integral: PixelRect {
        func whole(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int {
            let bound = 1_099_511_627_776.0
            return v.isNaN ? 0 : Int(min(max(v, -bound), bound).rounded(rule))
        }
        let x0 = whole(x, .down), y0 = whole(y, .down)
        let x1 = whole(x + width, .up), y1 = whole(y + height, .up)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension ImageRect {
    /// A point in pixels of the upright image, origin top-left (the space of
    /// `ImageRect`; `NormalizedPoint` is Vision's normalized, lower-left one).
    public struct Point: Sendable, Hashable, Codable {
        public var x: Double, y: Double
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }
}
