import Foundation

/// The other model's word on a sighting the score alone would confirm as a
/// face (`BoxTracker.Limits.opinionScore`): CenterFace, given a square crop
/// of 2.5 faces round RetinaFace's box (at least 128 px), at threshold 0.05.
/// RetinaFace at video's low threshold takes a gesturing hand beside a face
/// for a face at 0.5–0.9; CenterFace finds nothing there, and finds the faces
/// RetinaFace is unsure of (docs/design/video-tracking.md#hands-are-not-faces).
struct SecondOpinion: Sendable {
    var reader: DetectFaceRectanglesRequest

    init(detector: DetectFaceRectanglesRequest) {
        var reader = DetectFaceRectanglesRequest.analysis
        reader.model = .centerFace
        reader.confidenceThreshold = 0.05
        self.reader = reader.running(like: detector)
    }

    /// The best score of a face CenterFace finds within half a face of the
    /// centre of `box` (pixels of `frame`, stored orientation), 0 where none.
    func score(of box: ImageRect, in frame: VeilImage, rotation: ImageOrientation) async throws -> Float {
        let side = max(128, 2.5 * max(box.width, box.height))
        let whole = ImageRect(x: 0, y: 0, width: Double(frame.size.width), height: Double(frame.size.height))
        guard let area = ImageRect(x: box.midX - side / 2, y: box.midY - side / 2, width: side, height: side).intersection(whole) else { return 0 }
        let rect = PixelRect(x: Int(area.x.rounded(.down)), y: Int(area.y.rounded(.down)),
                             width: max(1, Int(area.width.rounded(.down))), height: max(1, Int(area.height.rounded(.down))))
        let crop = try frame.cropped(to: rect)
        let upright = try crop.applying(rotation)
        // The box in the upright crop's pixels.
        let local = ImageRect(x: box.x - Double(rect.x), y: box.y - Double(rect.y), width: box.width, height: box.height)
        let face = rotation.uprightRect(for: local, storedSize: crop.size)
        return try await reader.detect(in: upright).filter { $0.isAt(face) }.map(\.score).max() ?? 0
    }
}
