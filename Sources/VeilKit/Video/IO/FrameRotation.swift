extension ImageOrientation {
    /// The orientation that turns frames upright given a display rotation.
    init(clockwiseDegrees degrees: Int) {
        switch (degrees % 360 + 360) % 360 {
        case 90: self = .right
        case 180: self = .down
        case 270: self = .left
        default: self = .up
        }
    }

    /// A rectangle of the upright image mapped back onto the stored pixels.
    func storedRect(for rect: ImageRect, uprightSize: PixelSize) -> ImageRect {
        let W = Double(uprightSize.width), H = Double(uprightSize.height)
        switch self {
        case .right:  // stored (x, y) -> upright (Hs - y, x): inverse (x', y') -> (y', W - x')
            return ImageRect(x: rect.y, y: W - rect.x - rect.width, width: rect.height, height: rect.width)
        case .left:   // inverse of a quarter turn anticlockwise
            return ImageRect(x: H - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
        case .down:
            return ImageRect(x: W - rect.x - rect.width, y: H - rect.y - rect.height, width: rect.width, height: rect.height)
        default:
            return rect
        }
    }

    /// A point of the upright image mapped back onto the stored pixels.
    func storedPoint(for point: (x: Double, y: Double), uprightSize: PixelSize) -> (x: Double, y: Double) {
        let r = storedRect(for: ImageRect(x: point.x, y: point.y, width: 0, height: 0), uprightSize: uprightSize)
        return (r.x, r.y)
    }

    /// The turn that undoes this one.
    var inverse: ImageOrientation {
        switch self {
        case .right: return .left
        case .left: return .right
        default: return self
        }
    }

    /// A rectangle of the stored pixels mapped onto the upright image (the inverse of `storedRect`).
    func uprightRect(for rect: ImageRect, storedSize: PixelSize) -> ImageRect {
        let W = Double(storedSize.width), H = Double(storedSize.height)
        switch self {
        case .right: return ImageRect(x: H - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
        case .left: return ImageRect(x: rect.y, y: W - rect.x - rect.width, width: rect.height, height: rect.width)
        case .down: return ImageRect(x: W - rect.x - rect.width, y: H - rect.y - rect.height, width: rect.width, height: rect.height)
        default: return rect
        }
    }
}
