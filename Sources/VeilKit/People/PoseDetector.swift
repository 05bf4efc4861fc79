import Foundation

/// BlazePose's detector run as MediaPipe runs it (`pose_detection_cpu`): the
/// picture letterboxed to 224x224, the 2,254 SSD anchors decoded, weighted
/// non-maximum suppression at IoU 0.3. MediaPipe shows it the whole frame;
/// here it also sees the frame's squares (left, middle, right of a wide one),
/// where a far person is twice as large (docs/design/people.md#people-found-by-their-bodies).
struct PoseDetector: Sendable {
    let network: PoseDetectionNetwork
    var threshold: Float = 0.5

    struct Detection {
        var score: Float
        /// Box corners and the four keypoints, in image pixels.
        var box: (x0: Double, y0: Double, x1: Double, y1: Double)
        var keypoints: [(x: Double, y: Double)]
        var region: PoseRegion { PoseRegion(hips: keypoints[0], scale: keypoints[1]) }
    }

    /// The anchors' centres in 0...1 (`SsdAnchorsCalculator`: 5 layers of strides
    /// 8, 16, 32, 32, 32, two fixed-size anchors each; layers of one stride share cells).
    static let anchors: [(x: Double, y: Double)] = {
        var out: [(x: Double, y: Double)] = []
        for (stride, perCell) in [(8, 2), (16, 2), (32, 6)] {
            let cells = (PoseDetectionNetwork.side + stride - 1) / stride
            for y in 0..<cells { for x in 0..<cells { for _ in 0..<perCell {
                out.append(((Double(x) + 0.5) / Double(cells), (Double(y) + 0.5) / Double(cells)))
            } } }
        }
        return out
    }()

    /// People in 8-bit RGB: the whole picture and its squares, merged.
    func detect(_ rgb: [UInt8], width: Int, height: Int) async throws -> [Detection] {
        let side = min(width, height)
        var views = [(x: 0, y: 0, w: width, h: height)]
        if max(width, height) > side + side / 8 {
            let xs = Set([0, (width - side) / 2, width - side]), ys = Set([0, (height - side) / 2, height - side])
            for y in ys.sorted() { for x in xs.sorted() { views.append((x, y, side, side)) } }
        }
        var found: [Detection] = []
        for view in views {
            try Task.checkCancellation()
            found += try await detect(rgb, width: width, height: height, view: view)
        }
        return Self.suppressed(found)
    }

    /// One view (a rectangle of the picture) letterboxed into the network's square.
    func detect(_ rgb: [UInt8], width: Int, height: Int, view: (x: Int, y: Int, w: Int, h: Int)) async throws -> [Detection] {
        let n = Double(PoseDetectionNetwork.side), long = Double(max(view.w, view.h))
        let region = PoseRegion(centre: (Double(view.x) + Double(view.w) / 2, Double(view.y) + Double(view.h) / 2), side: long, angle: 0)
        // Outside the view (the letterbox) is black, as MediaPipe pads: the view's own rectangle only.
        var visible = [UInt8](repeating: 0, count: rgb.count)
        for y in view.y..<(view.y + view.h) {
            let start = (y * width + view.x) * 3
            visible.replaceSubrange(start..<(start + view.w * 3), with: rgb[start..<(start + view.w * 3)])
        }
        let input = region.sample(visible, width: width, height: height, size: PoseDetectionNetwork.side, scale: 2 / 255, offset: -1)
        let (raw, logits) = try await network.run(input)
        var out: [Detection] = []
        // From the network's pixels to the picture's.
        let toImage = { (u: Double, v: Double) -> (x: Double, y: Double) in
            (region.centre.x + (u / n - 0.5) * long, region.centre.y + (v / n - 0.5) * long)
        }
        for (i, logit) in logits.enumerated() {
            let score = 1 / (1 + exp(-max(-100, min(100, logit))))
            guard score >= threshold else { continue }
            let r = raw[(i * PoseDetectionNetwork.coordinates)...].prefix(PoseDetectionNetwork.coordinates).map(Double.init)
            let a = Self.anchors[i]
            let cx = r[0] + a.x * n, cy = r[1] + a.y * n
            let p0 = toImage(cx - r[2] / 2, cy - r[3] / 2), p1 = toImage(cx + r[2] / 2, cy + r[3] / 2)
            let keypoints = (0..<4).map { k in toImage(r[4 + 2 * k] + a.x * n, r[5 + 2 * k] + a.y * n) }
            out.append(Detection(score: score, box: (p0.x, p0.y, p1.x, p1.y), keypoints: keypoints))
        }
        return out
    }

    /// Weighted non-maximum suppression (MediaPipe's WEIGHTED, IoU 0.3): each
    /// best detection's overlapping ones averaged into it by score.
    static func suppressed(_ detections: [Detection], overlap: Double = 0.3) -> [Detection] {
        var left = detections.sorted { $0.score > $1.score }
        var out: [Detection] = []
        while let top = left.first {
            let group = left.filter { iou($0.box, top.box) > overlap }
            left.removeAll { iou($0.box, top.box) > overlap }
            let total = group.reduce(0) { $0 + Double($1.score) }
            let mean = { (f: (Detection) -> Double) in group.reduce(0) { $0 + f($1) * Double($1.score) } / total }
            out.append(Detection(score: top.score, box: (mean { $0.box.x0 }, mean { $0.box.y0 }, mean { $0.box.x1 }, mean { $0.box.y1 }),
                                 keypoints: (0..<4).map { k in (mean { $0.keypoints[k].x }, mean { $0.keypoints[k].y }) }))
        }
        return out
    }

    static func iou(_ a: (x0: Double, y0: Double, x1: Double, y1: Double), _ b: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Double {
        let w = max(0, min(a.x1, b.x1) - max(a.x0, b.x0)), h = max(0, min(a.y1, b.y1) - max(a.y0, b.y0))
        let union = (a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - w * h
        return union > 0 ? w * h / union : 0
    }
}
