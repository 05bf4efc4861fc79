import Foundation

extension VideoAnonymizer {
    /// How faces (and text) are covered: the style and masks, the shape, and what is covered.
    public struct Cover: Sendable {
        /// Masks 0.95 of photos' (1.0): the re-encode's ringing round a
        /// cover's cells changes pixels just past its disc that a photo keeps,
        /// and the smaller disc pays for them; a carried box is already
        /// widened by the tracker's prediction (`BoxTracker.Track.predicted`).
        /// Coverage held on every dev clip (docs/design/video-tracking.md#one-off-sightings).
        public var face = FaceCover(profile: MaskProfile(scale: 0.95))
        public var shape: CoverRegion.Shape = .disc
        /// Whether faces are covered (`--cover text` alone: no).
        public var faces = true
        /// Text to cover (`--cover faces,text`): found on the detection frames,
        /// carried between them by a tracker of its own, covered as boxes.
        public var text: TextCovering?

        public init(face: FaceCover = FaceCover(profile: MaskProfile(scale: 0.95)), shape: CoverRegion.Shape = .disc,
                    faces: Bool = true, text: TextCovering? = nil) {
            self.face = face; self.shape = shape; self.faces = faces; self.text = text
        }
    }

    /// How faces are found and carried between detections.
    public struct Detection: Sendable {
        /// Video favours recall, as photos do, and keeps the picture: RetinaFace
        /// at its privacy threshold (0.08), large faces held to higher scores
        /// (`largeFaceSide` 32). Chosen on coverage, collateral and speed together
        /// (docs/design/video-tracking.md#boxes-the-size-of-faces): what costs
        /// frame after frame is the network's time per pixel, and RetinaFace
        /// takes about a quarter of CenterFace's. Its tiles stay at full
        /// resolution (`schedule`): upsampling every tile of every frame costs
        /// more than video can pay.
        public var detector: DetectFaceRectanglesRequest = {
            var request = DetectFaceRectanglesRequest.privacy(.retinaFace)
            request.largeFaceSide = 32
            return request
        }()
        /// Which frames, and which part of them, the detector sees; the tracker
        /// carries faces between.
        public var schedule = DetectionSchedule()
        /// Frames a face stays covered after the detector last saw it: longer than
        /// a full sweep of the tiles, so small faces found in one stay covered
        /// until their tile comes round again.
        public var grace = 25
        /// How far the tracker's boxes may stray from what the detector saw.
        public var trackerLimits = BoxTracker.Limits()
        /// Live (`Source.realtime`), frames too large for one whole-frame pass
        /// (1080p) have it shrunk to this many pixels while the source is kept
        /// up with (nil: the schedule's `wholePixels` always): the whole pass is
        /// most of a 1080p detection's cost, and a cheaper one leaves time for
        /// twice the detections (docs/design/video-tracking.md#the-detection-schedule).
        public var liveWholePixels: Int? = 400_000
        /// Live, the tiles of a frame that gets every pass (the first, a new
        /// shot) at this scale while the source is kept up with (nil: full
        /// resolution). Every later frame queues behind that frame, so its
        /// cost is the stream's p99; faces too small for it are found when
        /// their tile comes round at full resolution
        /// (docs/design/video-tracking.md#a-streams-first-second).
        public var liveFirstTileScale: Double? = 0.6
        /// Propose which tracks are one person (nil: not): a few sightings of each
        /// track embedded as the run goes (`FrameRecord.embeddings`), for the
        /// `TrackRecorder` to group. `VideoReview` says whether a file's first run does.
        public var people: PersonProposal?

        public init() {}
    }

    /// What is read, and how: the demuxer, a live source's pace, the frame size refused, a time range.
    public struct Source: Sendable {
        /// The FFmpeg demuxer (`--input-format`); nil: FFmpeg's guess.
        public var format: String?
        /// For live sources: skip detections (never frames) to keep up with the
        /// source, and let more decoded frames wait.
        public var realtime = false
        /// Frames larger than this are refused from the header. Peak memory grows
        /// with the frame: RGB frames in the queues (six at most) with their
        /// decoded pictures, the decoder's and x264's pictures; detection's
        /// working memory is bounded by the largest pass (0.62 MP), not the
        /// frame (docs/design/video-tracking.md). 8K frames take several GB.
        public var maxFramePixels = 8192 * 4320
        /// One time range of the input (`VideoSegments.plan`), or nil for all of it.
        public var segment: VideoSegment?

        public init(format: String? = nil, realtime: Bool = false, segment: VideoSegment? = nil) {
            self.format = format; self.realtime = realtime; self.segment = segment
        }
    }

    /// A re-render from a state (`VideoReview`): its tracks and added regions
    /// are covered, the detector does not run (frame indices are the
    /// output's; not with a `segment`).
    public struct Review: Sendable {
        /// The state with its edits applied.
        public var state: VideoEditingState
        /// The output that state was last rendered into: the run copies the
        /// GOPs of it no edit changes, or, when it cannot, re-encodes every
        /// frame and says why (`Report.fullRender`). Nil: every frame is rendered.
        public var previous: PreviousRender?
        /// Whether the run may copy from `previous` (false: every frame is
        /// rendered, and `record` sees each, as `--json` needs).
        public var copiesUnchangedGOPs = true

        public init(state: VideoEditingState, previous: PreviousRender?, copiesUnchangedGOPs: Bool = true) {
            self.state = state; self.previous = previous; self.copiesUnchangedGOPs = copiesUnchangedGOPs
        }
    }
}
