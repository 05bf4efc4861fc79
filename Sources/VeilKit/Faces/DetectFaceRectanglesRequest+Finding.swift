/// Whether a detection would find faces at given places, for fewer pixels
/// than the whole detection: what a video asks of a frame covered as a photo
/// (`PhotoVerdict`), a few times a second.
extension DetectFaceRectanglesRequest {
    /// Whether `detect(in:)` on `image` finds a face at each of `boxes` (upright
    /// pixels; `DetectedFace.isAt`), from the passes that can find one there:
    /// the first passes, as `detect(in:)` runs them, then, for the boxes they
    /// left unanswered, those of the finer passes they choose that reach the
    /// box. A finer pass finds faces within its own region only, so the passes
    /// left out add faces elsewhere. The answers are the whole detection's
    /// but where a finer pass left out would have suppressed a first-pass face
    /// at a box with a better one off its centre: on cuts-dense, one sighting
    /// on 3 frames; pan-small and cuts-dev gave byte-identical videos. On
    /// pan-small's 30 photos of frames, 11 were answered by the first pass;
    /// the look took 1.2 s instead of 2.2
    /// (docs/design/video-tracking.md#sightings-no-photo-covers).
    /// With a `turn`, or no `refinement`, the whole detection runs.
    func finds(_ boxes: [ImageRect], in image: VeilImage) async throws -> [Bool] {
        guard !boxes.isEmpty else { return [] }
        guard let refinement, turn == nil else {
            let faces = try await detect(in: image)
            return boxes.map { box in faces.contains { $0.isAt(box) } }
        }
        try Task.checkCancellation()
        let detector = try await loadedModel()
        let rgb = try image.srgb8().materialized()
        let first = tiling.passes(for: image.size)
        var progress = PassProgress(total: 0, handler: nil)
        let (seen, chosen) = try await firstLook(rgb, first: first, refinement: refinement, detector: detector, progress: &progress)
        var found = seen.filter { $0.score >= confidenceThreshold }
        let open = boxes.filter { box in !found.contains { $0.isAt(box) } }
        // A face at a box has its centre in the box; a pass reaching round it by
        // the box's size also holds what could suppress or hold that face.
        let reaching = chosen.filter { pass in open.contains { pass.reaches($0) } }
        found += try await run(reaching, on: rgb, detector: detector, threshold: confidenceThreshold, progress: &progress)
        let faces = droppingFacesThatHoldFaces(first.count + chosen.count > 1 ? nonMaximumSuppression(found, iou: 0.3) : found)
        return boxes.map { box in faces.contains { $0.isAt(box) } }
    }
}

extension DetectedFace {
    /// Whether this face is centred within half a face of `box`'s centre: the
    /// same face, seen by another model or another look.
    func isAt(_ box: ImageRect) -> Bool {
        abs(self.box.midX - box.midX) < 0.5 * box.width && abs(self.box.midY - box.midY) < 0.5 * box.height
    }
}

extension DetectionPass {
    /// Whether this pass's region meets `box` grown by its own size on every side.
    func reaches(_ box: ImageRect) -> Bool {
        let r = region
        return Double(r.x) < box.x + 2 * box.width && box.x - box.width < Double(r.x + r.width)
            && Double(r.y) < box.y + 2 * box.height && box.y - box.height < Double(r.y + r.height)
    }
}
