import Foundation

/// People found by their bodies: BlazePose's detector, then its landmark
/// model on the rotated crop round each detection, as MediaPipe runs them.
///
/// A detection is kept only when the landmark model says a person is there
/// twice: on the detector's crop, then on the crop its own landmarks place
/// (MediaPipe's tracking crop, from the hips and scale landmarks 33 and 34).
/// Why twice: the detector fires on swans, a dog and cars, and the flag on one
/// crop is unsteady (a crop moved 0.4 px takes a swan from 0.45 to 0.72);
/// asking again halves the animal frames marked, though a swan still passes
/// (docs/design/people.md#people-found-by-their-bodies).
/// Several people: the detector's every detection, then those found are
/// blacked out and the detector looks again, for people it merged.
struct BodyFinder: Sendable {
    let detector: PoseDetector
    let landmarks: PoseLandmarkNetwork
    /// The presence the second crop must reach.
    var confirmation: Float = 0.75
    var rounds = 2

    struct Body {
        /// The person's soft mask (0...1), the picture's size.
        var mask: [Float]
        /// The head: a square round the face landmarks (image pixels).
        var head: ImageRect
        var presence: Float
    }

    static func load(home: VeilHome, device: ComputeDevice) async throws -> BodyFinder {
        BodyFinder(detector: PoseDetector(network: try await PoseDetectionNetwork.load(home: home, device: device)),
                   landmarks: try await PoseLandmarkNetwork.load(home: home, device: device))
    }

    func find(_ rgb: [UInt8], width: Int, height: Int) async throws -> [Body] {
        var bodies: [Body] = []
        var marked = [Bool](repeating: false, count: width * height)
        var view = rgb
        for _ in 0..<rounds {
            var added = 0
            for detection in try await detector.detect(view, width: width, height: height) {
                let hips = detection.keypoints[0]
                let hx = Int(hips.x), hy = Int(hips.y)
                if hx >= 0, hx < width, hy >= 0, hy < height, marked[hy * width + hx] { continue }
                guard let body = try await confirmed(detection.region, view, width: width, height: height) else { continue }
                for (i, v) in body.mask.enumerated() where v >= 0.5 { marked[i] = true }
                bodies.append(body)
                added += 1
            }
            guard added > 0 else { break }
            for i in 0..<(width * height) where marked[i] { view[3 * i] = 0; view[3 * i + 1] = 0; view[3 * i + 2] = 0 }
        }
        return bodies
    }

    /// The landmark model on the detector's crop, then on its own crop; the body if both say a person.
    func confirmed(_ region: PoseRegion, _ rgb: [UInt8], width: Int, height: Int) async throws -> Body? {
        let side = PoseLandmarkNetwork.side
        let first = try await landmarks.run(region.sample(rgb, width: width, height: height, size: side, scale: 1 / 255, offset: 0, border: .edge))
        guard first.presence >= 0.5 else { return nil }
        let point = { (out: PoseLandmarkNetwork.Output, r: PoseRegion, k: Int) in
            r.imagePoint(Double(out.landmarks[5 * k]), Double(out.landmarks[5 * k + 1]), size: side)
        }
        let own = PoseRegion(hips: point(first, region, 33), scale: point(first, region, 34))
        guard own.side >= 8 else { return nil }
        let second = try await landmarks.run(own.sample(rgb, width: width, height: height, size: side, scale: 1 / 255, offset: 0, border: .edge))
        guard second.presence >= confirmation else { return nil }
        var mask = [Float](repeating: 0, count: width * height)
        own.layBack(second.mask.map { 1 / (1 + exp(-max(-80, min(80, $0)))) }, size: side, width: width, height: height) { mask[$0] = $1 }
        // The head from the face landmarks (nose, eyes, ears, mouth: 0...10).
        let face = (0...10).map { point(second, own, $0) }
        let xs = face.map(\.x), ys = face.map(\.y)
        let extent = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!, own.side / 20) * 1.2
        let head = ImageRect(x: (xs.max()! + xs.min()!) / 2 - extent / 2, y: (ys.max()! + ys.min()!) / 2 - extent / 2, width: extent, height: extent)
        return Body(mask: mask, head: head, presence: second.presence)
    }
}
