import Foundation

extension BoxTracker {
    public struct Track: Sendable, Equatable {
        public var id: Int
        /// The last detected box.
        public var box: ImageRect
        /// Motion of the box's centre per frame (x, y).
        public var velocity: (Double, Double)
        /// Relative change of size per frame, within ±`Limits.maxSizeRate`.
        public var sizeRate = 0.0
        public var lastSeen: Int
        public var confidence: Float
        /// Detections matched to this track so far.
        public var hits = 1
        /// Detections since the last sighting that did not find it.
        public var misses = 0
        /// Of those, the ones that looked at the whole frame at full
        /// resolution: a face there would have been found again.
        public var missesEverywhere = 0
        /// The largest side any of its detections had: no prediction grows past
        /// `1 + maxGrowth` times it.
        public var largest: Double
        /// The best score any of its detections had.
        public var best: Float
        /// The other model's best score on crops of it (`Limits.opinionScore`),
        /// how often it was asked, and the detection score it was last asked at.
        public var opinion: Float = 0
        public var asked = 0
        public var askedAt: Float = 0
        /// Whether a frame covered as a photo had a face where it was
        /// (`Limits.photoVerdictEvery`): nil until one was asked, then true
        /// from the first that had.
        public var photoFound: Bool?

        public init(id: Int, box: ImageRect, velocity: (Double, Double) = (0, 0), lastSeen: Int, confidence: Float) {
            self.id = id; self.box = box; self.velocity = velocity; self.lastSeen = lastSeen
            self.confidence = confidence
            largest = max(box.width, box.height)
            best = confidence
        }

        /// Whether the detector has confirmed it as a face (`Limits.faceDetections`, `faceScore`, `strongScore`),
        /// and, below `sureScore` and `sureDetections`, the other model too: once it is, it stays one.
        public func isFace(_ limits: Limits) -> Bool {
            guard confirmed(limits, at: limits.faceScore), !isPhotoRejected(limits) else { return false }
            guard let bar = limits.opinionScore else { return true }
            return best >= limits.sureScore || hits >= limits.sureDetections || opinion >= bar
        }

        /// Whether to give the other model a crop of this track's detection of
        /// `confidence` on this frame: it would be a face but for the other
        /// model's word, and the detection is its most confident yet asked.
        public func wantsOpinion(at confidence: Float, _ limits: Limits) -> Bool {
            limits.opinionScore != nil && confidence >= limits.faceScore && asksAgain(at: confidence, limits)
                && confirmed(limits, at: limits.faceScore) && !isFace(limits)
        }

        /// Whether to ask the other model whether this weak sighting is covered
        /// (`Limits.coverOpinionScore`): it never scored `weakScore`, and this
        /// detection is its most confident yet asked.
        public func wantsCoverOpinion(at confidence: Float, _ limits: Limits) -> Bool {
            coverAwaitsOpinion(limits) && asksAgain(at: confidence, limits)
        }

        /// Whether the other model's word decides if it is covered at all
        /// (`isCovered`, `Limits.coverOpinionScore`): it never scored `weakScore`.
        public func coverAwaitsOpinion(_ limits: Limits) -> Bool {
            limits.coverOpinionScore != nil && best < limits.weakScore
        }

        /// Whether to look for it among the faces of this frame covered as a
        /// photo (`Limits.photoVerdictEvery`): seen as often as a face must be,
        /// at a best score between `weakScore` and `sureScore`, and not yet found.
        public func wantsPhotoVerdict(_ limits: Limits) -> Bool {
            limits.photoVerdictEvery != nil && photoFound != true && hits >= limits.faceDetections
                && best >= limits.weakScore && best < limits.sureScore
        }

        /// Looked for on frames covered as photos and never found there, and never sure.
        func isPhotoRejected(_ limits: Limits) -> Bool {
            limits.photoVerdictEvery != nil && photoFound == false && best >= limits.weakScore && best < limits.sureScore
        }

        /// The other model is asked again only at a better score than last time, and `Limits.opinionAsks` times at most.
        private func asksAgain(at confidence: Float, _ limits: Limits) -> Bool { confidence > askedAt && asked < limits.opinionAsks }

        /// Whether it is covered: any sighting but a weak one the other model,
        /// asked, did not find, and one no frame covered as a photo had a face on.
        public func isCovered(_ limits: Limits) -> Bool {
            guard !isPhotoRejected(limits) else { return false }
            guard coverAwaitsOpinion(limits), let bar = limits.coverOpinionScore, asked > 0 else { return true }
            return opinion >= bar
        }

        /// Whether looks at the whole frame have missed it more often than a
        /// face, found as often as it was, is missed (`Limits.missesPerDetection`).
        public func isDisproved(_ limits: Limits) -> Bool {
            guard let k = limits.missesPerDetection, best < limits.sureScore else { return false }
            return missesEverywhere > k * hits
        }

        /// Kept for the whole grace period (`Limits.carryScore`), else a candidate.
        public func isCarried(_ limits: Limits) -> Bool { confirmed(limits, at: limits.carryScore) }

        private func confirmed(_ limits: Limits, at score: Float) -> Bool {
            (hits >= limits.faceDetections && best >= score) || best >= limits.strongScore
        }

        public static func == (a: Track, b: Track) -> Bool { a.id == b.id && a.box == b.box && a.lastSeen == b.lastSeen }

        /// Where the face should be at `frame`: moved by its velocity, its
        /// size changed as a face can, widened by the uncertainty, never past
        /// `1 + maxGrowth` times the face (last seen or largest seen).
        public func predicted(at frame: Int, limits: Limits = Limits()) -> ImageRect {
            let n = Double(max(0, frame - lastSeen))
            guard n > 0 else { return box }
            let sized = min(max(1 + sizeRate * n, 1 / limits.maxSizeChange), limits.maxSizeChange)
            let widen = 1 + min(limits.maxGrowth, (hits > 1 ? limits.growth : limits.unmeasuredGrowth) * n)
            let cap = (1 + limits.maxGrowth) * largest / max(box.width, box.height, 1)
            let scale = min(sized * widen, cap, 1 + limits.maxGrowth)
            let w = max(1, box.width * scale), h = max(1, box.height * scale)
            let moved = min(n, Double(limits.ownMotionFrames))
            return ImageRect(x: box.midX + velocity.0 * moved - w / 2, y: box.midY + velocity.1 * moved - h / 2, width: w, height: h)
        }
    }
}

extension BoxTracker.Track {
    /// A detection matched to this track: the velocity measured outright on
    /// the second sighting (the first had none), then smoothed half and half;
    /// the size rate measured the same way, within what a face can do.
    mutating func observe(_ detection: (box: ImageRect, confidence: Float), at frame: Int, limits: BoxTracker.Limits) {
        let new = detection.box, gap = Double(max(1, frame - lastSeen))
        let measured = ((new.midX - box.midX) / gap, (new.midY - box.midY) / gap)
        let old = max(box.width, box.height, 1), size = max(new.width, new.height)
        let rate = min(max((size / old - 1) / gap, -limits.maxSizeRate), limits.maxSizeRate)
        if hits == 1 {
            velocity = measured; sizeRate = rate
        } else {
            velocity = ((velocity.0 + measured.0) / 2, (velocity.1 + measured.1) / 2)
            sizeRate = (sizeRate + rate) / 2
        }
        hits += 1
        misses = 0
        missesEverywhere = 0
        box = new
        largest = max(largest, size)
        lastSeen = frame
        confidence = detection.confidence
        best = max(best, detection.confidence)
    }
}
