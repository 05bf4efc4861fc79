import Foundation

/// What SFace makes of a face: 128 numbers of unit length, compared by cosine
/// (`similarity`). Two sightings of one person score high, two people low
/// (docs/design/video-tracking.md#the-same-person-across-cuts). Computed on the
/// machine and kept in memory only: a video's state records which person a
/// track is, never this.
public struct FaceEmbedding: Sendable, Hashable {
    /// Unit length (or all zeros for a picture with no face in it at all).
    public var values: [Float]

    public init(values: [Float]) { self.values = values }

    /// The cosine of the angle between two embeddings: 1 the same, 0 unrelated.
    public func similarity(to other: FaceEmbedding) -> Float {
        guard values.count == other.values.count else { return 0 }
        var dot: Float = 0
        for i in values.indices { dot += values[i] * other.values[i] }
        return dot
    }

    /// `values` scaled to unit length.
    static func normalized(_ values: [Float]) -> FaceEmbedding {
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return FaceEmbedding(values: norm > 0 ? values.map { $0 / norm } : values)
    }

    /// The direction of several embeddings' sum, unit length: one face seen
    /// several times, each sighting's noise averaged out. Nil for none.
    public static func mean(_ list: [FaceEmbedding]) -> FaceEmbedding? {
        guard let first = list.first else { return nil }
        var sum = [Float](repeating: 0, count: first.values.count)
        for e in list where e.values.count == sum.count { for i in sum.indices { sum[i] += e.values[i] } }
        return normalized(sum)
    }
}

/// A face's embedding (`FaceEmbedding`) from SFace (`Asset.sface`): the face
/// aligned by its five landmarks onto ArcFace's 112x112 template (a
/// least-squares similarity: shift, turn and scale), sampled bilinearly from
/// the frame's RGB bytes in one pass (no image made), RGB 0...255 as the
/// network takes it (its graph subtracts 127.5 and divides by 128).
struct FaceEmbedder: Sendable {
    let session: InferenceSession

    /// The network's input side.
    static let side = 112
    /// ArcFace's five points for a 112x112 face (left eye, right eye, nose, mouth's
    /// left and right corners, as seen), in OpenCV's pixel coordinates (centres on integers).
    static let template: [(x: Double, y: Double)] = [(38.2946, 51.6963), (73.5318, 51.5014), (56.0252, 71.7366),
                                                      (41.5493, 92.3655), (70.7299, 92.2041)]

    /// The session, loaded once per process and device. The pinned file takes one
    /// face at a time; its batch axis is made free so a frame's faces run together,
    /// the weights it lists as inputs are made constants (`ONNXGraphRepair.repair`),
    /// and its 8-bit weights are made floats once (`WeightDequantization`), not on every run.
    static func load(home: VeilHome = .default, device: ComputeDevice) async throws -> FaceEmbedder {
        let runtime = try InferenceRuntime.shared(home: home)
        return FaceEmbedder(session: try await runtime.session(for: .sface, device: device) {
            try ONNXGraphRepair.repair(WeightDequantization.apply($0), symbolicAxes: [0])
        })
    }

    /// One embedding per face of `faces` (each its five landmarks, in pixels of
    /// the `width` x `height` RGB bytes `pixels`), in their order, from one run of the network.
    func embeddings(of faces: [[(x: Double, y: Double)]], in pixels: [UInt8], width: Int, height: Int) async throws -> [FaceEmbedding] {
        guard !faces.isEmpty else { return [] }
        let plane = Self.side * Self.side
        var input = [Float](repeating: 0, count: faces.count * 3 * plane)
        for (i, landmarks) in faces.enumerated() {
            guard let transform = Self.alignment(landmarks) else { continue }
            Self.sample(pixels, width: width, height: height, through: transform, into: &input, at: i * 3 * plane)
        }
        let outputs = try await session.run([Tensor(shape: [faces.count, 3, Self.side, Self.side], values: input)])
        guard let name = session.outputNames.first, let out = outputs[name], out.values.count == faces.count * 128 else {
            throw VeilError.inference("SFace gave outputs \(session.outputNames), not one 128-number embedding a face")
        }
        return (0..<faces.count).map { FaceEmbedding.normalized(Array(out.values[$0 * 128..<($0 + 1) * 128])) }
    }

    /// A similarity transform, x' = a x - b y + tx, y' = b x + a y + ty.
    struct Similarity: Equatable {
        var a, b, tx, ty: Double

        func apply(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) { (a * p.x - b * p.y + tx, b * p.x + a * p.y + ty) }

        /// The transform that undoes this one (nil when it collapses the plane).
        var inverse: Similarity? {
            let d = a * a + b * b
            guard d > 1e-12 else { return nil }
            let (ia, ib) = (a / d, -b / d)
            return Similarity(a: ia, b: ib, tx: -(ia * tx - ib * ty), ty: -(ib * tx + ia * ty))
        }
    }

    /// The least-squares similarity taking `landmarks` (pixels, continuous: a pixel
    /// spans [i, i+1)) onto the template (continuous too), or nil for fewer than
    /// five points or points that coincide. Closed form: centred, a and b are the
    /// points' dot and cross products over the landmarks' spread (Umeyama's, without reflection).
    static func alignment(_ landmarks: [(x: Double, y: Double)]) -> Similarity? {
        guard landmarks.count == 5, landmarks.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let target = template.map { (x: $0.x + 0.5, y: $0.y + 0.5) }
        let n = Double(landmarks.count)
        let sm = (landmarks.reduce(0) { $0 + $1.x } / n, landmarks.reduce(0) { $0 + $1.y } / n)
        let tm = (target.reduce(0) { $0 + $1.x } / n, target.reduce(0) { $0 + $1.y } / n)
        var dot = 0.0, cross = 0.0, spread = 0.0
        for (s, t) in zip(landmarks, target) {
            let (sx, sy, qx, qy) = (s.x - sm.0, s.y - sm.1, t.x - tm.0, t.y - tm.1)
            dot += sx * qx + sy * qy
            cross += sx * qy - sy * qx
            spread += sx * sx + sy * sy
        }
        guard spread > 1e-6 else { return nil }
        let (a, b) = (dot / spread, cross / spread)
        return Similarity(a: a, b: b, tx: tm.0 - (a * sm.0 - b * sm.1), ty: tm.1 - (b * sm.0 + a * sm.1))
    }

    /// The aligned face, 112x112, written as three planes (R, G, B) of floats in 0...255
    /// into `out` from `offset`: each output pixel's centre taken back through the
    /// transform's inverse and sampled bilinearly; outside the frame, black (as OpenCV's warp).
    static func sample(_ pixels: [UInt8], width: Int, height: Int, through transform: Similarity, into out: inout [Float], at offset: Int) {
        guard let back = transform.inverse, pixels.count >= width * height * 3 else { return }
        let plane = side * side
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                /// One pixel's band `c`, black outside the frame.
                @inline(__always) func at(_ x: Int, _ y: Int, _ c: Int) -> Float {
                    x >= 0 && x < width && y >= 0 && y < height ? Float(src[(y * width + x) * 3 + c]) : 0
                }
                for v in 0..<side {
                    for u in 0..<side {
                        let p = back.apply((Double(u) + 0.5, Double(v) + 0.5))
                        let (x, y) = (p.x - 0.5, p.y - 0.5)
                        let o = offset + v * side + u
                        guard x > -1, y > -1, x < Double(width), y < Double(height) else { continue }
                        let (x0, y0) = (Int(x.rounded(.down)), Int(y.rounded(.down)))
                        let (fx, fy) = (Float(x - Double(x0)), Float(y - Double(y0)))
                        for c in 0..<3 {
                            let top = at(x0, y0, c) * (1 - fx) + at(x0 + 1, y0, c) * fx
                            let bottom = at(x0, y0 + 1, c) * (1 - fx) + at(x0 + 1, y0 + 1, c) * fx
                            dst[o + c * plane] = top * (1 - fy) + bottom * fy
                        }
                    }
                }
            }
        }
    }
}
