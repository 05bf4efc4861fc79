import Foundation

/// BlazePose's person detector (MediaPipe, converted from TFLite at install):
/// 224x224 RGB in -1...1, and for each of its 2,254 anchors a box, four
/// keypoints (the hips' centre, a point on the circle round the body, the
/// shoulders' centre, a point on the circle round the upper body) and a score.
struct PoseDetectionNetwork: Sendable {
    static let side = 224, anchors = 2254, coordinates = 12
    let session: InferenceSession

    static func load(home: VeilHome, device: ComputeDevice) async throws -> PoseDetectionNetwork {
        PoseDetectionNetwork(session: try await InferenceRuntime.shared(home: home).session(for: .poseDetection, device: device))
    }

    /// The raw outputs for a 224x224 NCHW input already in -1...1: 2,254 x 12
    /// numbers (offsets in input pixels from each anchor) and 2,254 score logits.
    func run(_ input: Tensor) async throws -> (boxes: [Float], scores: [Float]) {
        let outputs = try await session.run([input])
        guard session.outputNames.count == 2, let boxes = outputs[session.outputNames[0]], let scores = outputs[session.outputNames[1]],
              boxes.values.count == Self.anchors * Self.coordinates, scores.values.count == Self.anchors else {
            throw VeilError.inference("the pose detector gave no \(Self.anchors) anchors")
        }
        return (boxes.values, scores.values)
    }
}

/// BlazePose's full landmark model (MediaPipe, converted at install): a
/// 256x256 crop round one person in 0...1; 39 landmarks (x, y, z, visibility,
/// presence each, in crop pixels), whether a person is there at all (0...1),
/// and the person's mask (logits).
struct PoseLandmarkNetwork: Sendable {
    static let side = 256, landmarks = 39
    let session: InferenceSession

    static func load(home: VeilHome, device: ComputeDevice) async throws -> PoseLandmarkNetwork {
        PoseLandmarkNetwork(session: try await InferenceRuntime.shared(home: home).session(for: .poseLandmarks, device: device))
    }

    struct Output {
        /// 39 x 5 numbers: x, y (crop pixels), z, visibility and presence (logits).
        var landmarks: [Float]
        /// The probability that the crop shows a person.
        var presence: Float
        /// 256 x 256 mask logits, row-major.
        var mask: [Float]
    }

    /// The outputs for a 256x256 NCHW input in 0...1.
    func run(_ input: Tensor) async throws -> Output {
        let outputs = try await session.run([input])
        let names = session.outputNames
        let side = Self.side
        guard names.count == 5, let landmarks = outputs[names[0]], let presence = outputs[names[1]], let mask = outputs[names[2]],
              landmarks.values.count == Self.landmarks * 5, presence.values.count == 1, mask.values.count == side * side else {
            throw VeilError.inference("the pose landmark model gave no \(side)x\(side) mask")
        }
        return Output(landmarks: landmarks.values, presence: presence.values[0], mask: mask.values)
    }
}
