import Synchronization

/// Collects a run's boxes frame by frame (`VideoAnonymizer.run`'s `record`)
/// into the tracks of a video editing state: what a person reviews and
/// re-edits without detecting again. Called from the pipeline's task, read
/// once the run is over; a mutex keeps the two apart.
public final class TrackRecorder: Sendable {
    private typealias Sightings = [Int: [(frame: Int, box: ImageRect, detected: Bool, score: Float)]]
    /// Faces' and text's, each by its own tracker's ids.
    private let sightings = Mutex<(faces: Sightings, texts: Sightings)>(([:], [:]))

    public init() {}

    public func record(_ frame: VideoAnonymizer.FrameRecord) {
        sightings.withLock { all in
            for face in frame.faces { all.faces[face.id, default: []].append((frame.index, face.box, face.detected, face.score)) }
            for text in frame.texts { all.texts[text.id, default: []].append((frame.index, text.box, text.detected, text.score)) }
        }
    }

    /// Every face track seen, with its sightings normalized to a frame of `size`, by id.
    public func tracks(frameSize size: PixelSize) -> [VideoEditingState.Track] {
        sightings.withLock { TrackRecorder.tracks($0.faces, size) }
    }

    /// The text tracks, the same way.
    public func textTracks(frameSize size: PixelSize) -> [VideoEditingState.Track] {
        sightings.withLock { TrackRecorder.tracks($0.texts, size) }
    }

    private static func tracks(_ all: Sightings, _ size: PixelSize) -> [VideoEditingState.Track] {
        all.keys.sorted().map { id in
            VideoEditingState.Track(id: id, status: .covered, frames: all[id]!.map {
                VideoEditingState.Sighting(frame: $0.frame, box: EditingState.Box($0.box, in: size), detected: $0.detected, score: $0.score)
            })
        }
    }
}
