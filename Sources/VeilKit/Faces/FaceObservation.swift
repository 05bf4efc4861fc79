/// A face found in an image: the answer of `DetectFaceRectanglesRequest`.
///
/// Coordinates are normalized to the upright image with the origin at the
/// lower-left corner, as in Vision; `toImageCoordinates` converts them.
public struct FaceObservation: Sendable, Hashable, Codable {
    /// The face's box, normalized, origin lower-left.
    public var boundingBox: NormalizedRect
    /// The detector's score in [0, 1].
    public var confidence: Float
    /// Eyes, nose and mouth corners, normalized like `boundingBox`.
    public var landmarks: FaceLandmarks?

    public init(boundingBox: NormalizedRect, confidence: Float, landmarks: FaceLandmarks? = nil) {
        self.boundingBox = boundingBox
        self.confidence = confidence
        self.landmarks = landmarks
    }
}

/// Five facial landmarks, normalized to the image, origin lower-left.
public struct FaceLandmarks: Sendable, Hashable, Codable {
    /// In order: left eye, right eye, nose tip, left mouth corner, right mouth
    /// corner ("left" as seen in the image).
    public var points: [NormalizedPoint]

    public init(points: [NormalizedPoint]) { self.points = points }

    public var leftEye: NormalizedPoint { points[0] }
    public var rightEye: NormalizedPoint { points[1] }
    public var nose: NormalizedPoint { points[2] }
    public var mouthLeft: NormalizedPoint { points[3] }
    public var mouthRight: NormalizedPoint { points[4] }
}
