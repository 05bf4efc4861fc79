import Foundation

extension BoxTracker {
    /// How far a prediction may stray from what was seen. Each rule's worth,
    /// in coverage and collateral on both dev clips, is in
    /// docs/design/video-tracking.md#boxes-the-size-of-faces.
    public struct Limits: Sendable, Hashable {
        /// Widening a frame since the last sighting, as a share of the face's
        /// size: with a measured velocity, and for a face seen once (no
        /// velocity of its own yet: a walker crossing close to the camera
        /// moves about half a face a frame; crowd-1080p's fastest, 35 px on a
        /// 78 px face). 0.5 for the latter (as far as `maxGrowth` lets a box
        /// grow) holds that walker's centre in the full-strength part of
        /// video's disc (0.95 of photos'; 0.3 when masks were 1.1x, 0.45 at 1.0).
        public var growth = 0.05
        public var unmeasuredGrowth = 0.5
        /// The widest a prediction gets, as a share of the face's size added:
        /// 0.5 is at most 1.5x the face, however long it is carried.
        public var maxGrowth = 0.5
        /// A face's change of size a frame that is carried on (a walker
        /// coming at the camera at 1.4 m/s from 3 m grows ~2% a frame at 25
        /// fps), and the most it is carried in all (x1.25 or /1.25).
        public var maxSizeRate = 0.02
        public var maxSizeChange = 1.25
        /// Detections at or above this score choose among all tracks first
        /// (ByteTrack's first stage); weaker ones among the tracks left.
        public var confirmScore: Float = 0.5
        /// Detections a candidate outlives without a second sighting: counted
        /// in the detector's looks, not in frames, so a schedule that detects
        /// every third frame gives a candidate the same chances. With every
        /// frame detected, 3 keeps a false sighting up for 3 frames after it.
        public var candidateLife = 3
        /// Detections that looked everywhere (`update(…, everywhere:)`) a
        /// sighting found once, and not again, outlives: none. It is covered
        /// on the frame it was found and not carried: most are
        /// RetinaFace's one-off sightings at its low privacy threshold (a
        /// hand, a pattern in a crowd's clothes), and carried they made 41% of
        /// cuts-dense's collateral while being the only cover of 0.7% of its
        /// face-frames; a face found again within `candidateLife` detections
        /// is a candidate as before (docs/design/video-tracking.md#one-off-sightings).
        public var onceLife = 0
        /// Frames a track's own velocity is carried past its last sighting:
        /// past that it moves with the camera alone. A face that is not
        /// found keeps no momentum: carried on, a jittered estimate flies
        /// off the face within a few frames.
        public var ownMotionFrames = 5
        /// How far apart a track's prediction and a detection may be to match
        /// when their boxes barely overlap, in the larger box's sides.
        public var matchReach = 0.75
        /// When a sighting is a face (`Track.isFace`): found on this many
        /// detections with a best score of at least `faceScore`, or once at
        /// `strongScore`. Until then it is covered while seen, but it is not
        /// a track to review: the state lists it apart, as unsure. On the dev
        /// clips the best score decides and the number of detections counts
        /// little (docs/design/video-tracking.md#a-track-is-a-face).
        public var faceDetections = 2
        public var faceScore: Float = 0.5
        public var strongScore: Float = 0.9
        /// A sighting the score confirms but never saw at `sureScore`, nor on
        /// `sureDetections` detections, is a face only once the other model,
        /// given a crop of it, finds a face there at `opinionScore` or more
        /// (`Track.opinion`; nil: no other model asked, the score alone
        /// confirms). RetinaFace takes a hand beside a face for one at
        /// 0.5–0.9, CenterFace sees nothing there; weak real faces in a crowd
        /// are seen again and again (docs/design/video-tracking.md#hands-are-not-faces).
        public var sureScore: Float = 0.8
        public var sureDetections = 10
        public var opinionScore: Float? = 0.1
        /// Crops of one sighting given to the other model at most, each at a
        /// better score than the last.
        public var opinionAsks = 3
        /// A sighting that never scored `weakScore` is covered only where the
        /// other model, given a crop of it, finds a face there at
        /// `coverOpinionScore` (photos' own threshold: a frame covered as a
        /// photo would not cover it otherwise). RetinaFace at video's low
        /// threshold sees hands on knees, a shoulder or a wall beside a face,
        /// again and again at 0.09–0.3. At most `coverAsksPerFrame` such crops
        /// a frame, the rest covered while seen: a crowd's weak sightings are
        /// its small faces, and a crop each cost cuts-dense 3.5x its time
        /// (nil: every sighting covered while seen)
        /// (docs/design/video-tracking.md#weak-sightings-covered-where-a-photo-would-be).
        public var weakScore: Float = 0.3
        public var coverOpinionScore: Float? = 0.12
        public var coverAsksPerFrame = 4
        /// A sighting seen on `faceDetections` detections whose best score lies
        /// between `weakScore` and `sureScore` is covered only where the frame,
        /// covered as a photo (`veil blur`'s own detection, `PhotoVerdict`),
        /// has a face: on every `photoVerdictEvery`-th frame that such a
        /// sighting is detected on, the photo's faces are found, and a sighting
        /// among them is covered from then on; one the photo never found is not
        /// (until then it is covered while seen). RetinaFace sees a shirt's
        /// print and hands on knees at 0.5–0.66 on every frame of their shots,
        /// which no photo covers, and a crop of them given to CenterFace reads
        /// as a face (0.25); on the whole frame it does not. Every 6 frames, not
        /// 3: cuts-dense covered 3 face-frames fewer than its frames as photos
        /// (nil: every such sighting covered while seen)
        /// (docs/design/video-tracking.md#sightings-no-photo-covers).
        public var photoVerdictEvery: Int? = 3
        /// A sighting carried the grace period once seen this often at this
        /// score (or once at `strongScore`); any other is a candidate, covered
        /// `candidateLife` more detections. Lower than `faceScore`: tracks of
        /// weak small faces seen again and again are carried all the same.
        public var carryScore: Float = 0.3
        /// A sighting never seen at `sureScore` ends, whatever the grace,
        /// once the detector, looking at the whole frame in full, has missed it
        /// since its last detection more than this many times its detections
        /// (nil: carried the grace period). A face is found again; RetinaFace
        /// took a scarf and folded arms below a face (boxes of 155x236 px) for
        /// faces 2 and 3 times at 0.46–0.57, never again, and the grace
        /// carried them 25 frames more: a held-out clip's collateral went
        /// from 1.51x its frames as photos' to 1.08x (704 face-frames
        /// covered against 707, its photos 698), the dev clips' and the other
        /// held-out clips' faces covered as before
        /// (docs/design/video-tracking.md#sightings-the-detector-no-longer-finds).
        public var missesPerDetection: Int? = 3

        public init() {}

        /// Whether the other model is asked anything (`opinionScore`, `coverOpinionScore`, `photoVerdictEvery`).
        public var asksOtherModel: Bool { opinionScore != nil || coverOpinionScore != nil || photoVerdictEvery != nil }

        /// The same limits with no other model asked: the score alone confirms, every sighting is covered while seen.
        public var withoutOtherModel: Limits {
            var limits = self
            (limits.opinionScore, limits.coverOpinionScore, limits.photoVerdictEvery) = (nil, nil, nil)
            return limits
        }
    }
}
