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
}
