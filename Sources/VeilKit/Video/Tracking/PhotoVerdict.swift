import Foundation

/// The faces a frame covered as a photo has: `veil blur`'s own detection
/// (CenterFace at the privacy preset, its finer passes round small faces) on
/// the whole upright frame, for the sightings RetinaFace is unsure of
/// (`BoxTracker.Limits.photoVerdictEvery`). The whole frame, not a crop:
/// CenterFace's answer near its threshold depends on what surrounds a face,
/// and crops of 64 or 128 px round each sighting disagreed with the whole
/// frame on 5–15% of the sightings asked
/// (docs/design/video-tracking.md#sightings-no-photo-covers).
struct PhotoVerdict: Sendable {
    var request: DetectFaceRectanglesRequest

    init(detector: DetectFaceRectanglesRequest) {
        var request = DetectFaceRectanglesRequest.privacy
        // Video frames are upright by their rotation, and a shot whose faces lean
        // is detected turned already: no probe of a sideways photo.
        request.turn = nil
        self.request = request.running(like: detector)
    }

    /// The photo's faces in `frame`'s stored pixels.
    func faces(in frame: VeilImage, rotation: ImageOrientation) async throws -> [ImageRect] {
        let upright = try frame.applying(rotation)
        return try await request.detect(in: upright).map { rotation.storedRect(for: $0.box, uprightSize: upright.size) }
    }

    /// Whether one of `faces` is centred within half a face of `box`'s centre.
    static func finds(_ box: ImageRect, among faces: [ImageRect]) -> Bool {
        faces.contains { abs($0.midX - box.midX) < 0.5 * box.width && abs($0.midY - box.midY) < 0.5 * box.height }
    }
}
