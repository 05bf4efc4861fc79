/// How stored pixels must be turned to be upright: the eight EXIF orientation
/// values, named as in Vision's `CGImagePropertyOrientation`.
public enum ImageOrientation: Int, Sendable, CaseIterable, Codable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Quarter turns clockwise, then an optional mirror, that make the pixels upright.
    var uprightTransform: (quarterTurns: Int, flip: FlipAxis?) {
        switch self {
        case .up: return (0, nil)
        case .upMirrored: return (0, .horizontal)
        case .down: return (2, nil)
        case .downMirrored: return (0, .vertical)
        case .leftMirrored: return (1, .horizontal)  // transpose
        case .right: return (1, nil)
        case .rightMirrored: return (1, .vertical)  // transverse
        case .left: return (3, nil)
        }
    }

    enum FlipAxis { case horizontal, vertical }
}
