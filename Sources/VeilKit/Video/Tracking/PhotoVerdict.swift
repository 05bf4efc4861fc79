import Foundation

/// The faces a frame covered as a photo has: `veil blur`'s own detection
/// (CenterFace at the privacy preset, its finer passes round small faces) on
/// the whole upright frame, for the sightings RetinaFace is unsure of
/// (`BoxTracker.Limits.photoVerdictEvery`). The whole frame, not a crop:
/// CenterFace's answer near its threshold depends on what surrounds a face,
/// and crops of 64 or 128 px round each sighting disagreed with the whole
/// frame on 5–15% of the sightings asked
/// (docs/design/video-tracking.md#sightings-no-photo-covers). Only the passes
/// that can answer run (`DetectFaceRectanglesRequest.finds`).
struct PhotoVerdict: Sendable {
    var request: DetectFaceRectanglesRequest

    init(detector: DetectFaceRectanglesRequest) {
        var request = DetectFaceRectanglesRequest.privacy
        // Video frames are upright by their rotation, and a shot whose faces lean
        // is detected turned already: no probe of a sideways photo.
        request.turn = nil
        self.request = request.running(like: detector)
    }

    /// Whether the photo of `frame` (stored pixels, turned upright by
    /// `rotation`) has a face at each of `boxes` (stored pixels).
    func finds(_ boxes: [ImageRect], in frame: VeilImage, rotation: ImageOrientation) async throws -> [Bool] {
        let upright = try frame.applying(rotation)
        return try await request.finds(boxes.map { rotation.uprightRect(for: $0, storedSize: frame.size) }, in: upright)
    }
}
