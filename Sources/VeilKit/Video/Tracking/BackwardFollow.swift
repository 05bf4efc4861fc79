import Foundation

/// Follows an added box backward from its key frame, as `BoxFollower`
/// follows it forward while the video is rendered: the frames before the
/// key are needed last-first, so they are read in a pass of their own
/// before the render. Memory stays bounded whatever the length: the pass
/// goes back in windows of at most 64 frames, each read from the keyframe
/// before it, and keeps of each frame only the grey levels of the part the
/// follower can reach there (the box's path predicted from its motion so
/// far, widened by what a step can move), at most `windowBytes` a window.
/// Frames are numbered from their presentation times at the video's rate,
/// as the render counts them in a constant-rate video.
struct BackwardFollow {
    static let windowBytes = 32 << 20
    static let longestWindow = 64

    let input: String, format: String?, maxPixels: Int
    /// Asked between frames; true ends the pass (the run was cancelled).
    let stop: RecordingStop

    /// The region's boxes on the frames before `frame` (stored pixels), by
    /// frame, from the frame before the key back to where it is lost.
    func follow(from frame: Int, box: ImageRect) throws -> [Int: ImageRect] {
        guard frame > 0 else { return [:] }
        let clock = try Clock(input: input, format: format, maxPixels: maxPixels, stop: stop)
        var found: [Int: ImageRect] = [:]
        var follower: BoxFollower?
        var current = box
        var end = frame
        while end >= 0, !stop.isRequested {
            // The motion so far (pixels a frame, forward in time), from the last frames found.
            let velocity = Self.velocity(found, at: end + 1, key: (frame, box))
            let (length, area) = Self.window(box: current, velocity: velocity, end: end, frame: clock.frame, unknownMotion: follower == nil || found.count < 2)
            let start = max(0, end - length + 1)
            let crops = try clock.crops(start...end, area: area)
            guard crops.count == end - start + 1 else { break }
            var next = end
            if follower == nil {
                guard let made = BoxFollower(crops[end - start], box: box) else { return [:] }
                follower = made
                next = end - 1
            }
            var rewindow: Int?
            for f in stride(from: next, through: start, by: -1) {
                if !crops[f - start].reaches(around: current) { rewindow = f; break }
                guard let moved = follower!.follow(crops[f - start]) else { return found }
                found[f] = moved
                current = moved
            }
            end = rewindow ?? start - 1
        }
        return found
    }

    /// Pixels a frame the box moved over the (up to 4) frames after `frame`.
    static func velocity(_ found: [Int: ImageRect], at frame: Int, key: (frame: Int, box: ImageRect)) -> (dx: Double, dy: Double) {
        func box(_ f: Int) -> ImageRect? { f == key.frame ? key.box : found[f] }
        guard let near = box(frame) else { return (0, 0) }
        var far = frame
        while far < frame + 4, box(far + 1) != nil { far += 1 }
        guard far > frame, let b = box(far) else { return (0, 0) }
        let n = Double(far - frame)
        return ((b.x - near.x) / n, (b.y - near.y) / n)
    }

    /// How many frames back the next window goes, and the part of the
    /// frame it keeps: the box's predicted path over those frames widened
    /// by a step's reach and by what the prediction may miss (a whole step
    /// a frame while the motion is not known yet; a quarter of one once it
    /// is), held to `windowBytes` in all.
    static func window(box: ImageRect, velocity: (dx: Double, dy: Double), end: Int, frame: PixelSize, unknownMotion: Bool) -> (Int, PixelRect) {
        let (reach, step) = BoxFollower.reach(of: box)
        let slack = reach + step + 2
        var length = unknownMotion ? 8 : longestWindow
        while true {
            let miss = (unknownMotion ? slack : 0.25 * slack) * Double(length)
            let far = ImageRect(x: box.x - velocity.dx * Double(length), y: box.y - velocity.dy * Double(length), width: box.width, height: box.height)
            let x0 = min(box.x, far.x) - slack - miss, y0 = min(box.y, far.y) - slack - miss
            let x1 = max(box.x, far.x) + box.width + slack + miss, y1 = max(box.y, far.y) + box.height + slack + miss
            let area = ImageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(
                ImageRect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height)))?.integral
                ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
            if length == 1 || area.width * area.height * length <= windowBytes { return (length, area) }
            length /= 2
        }
    }
}

/// The grey levels of part of a frame (`area`, in the frame's pixels).
struct GreyCrop: GreyPicture {
    let area: PixelRect
    let levels: [UInt8]
    let frameWidth: Int, frameHeight: Int

    init(_ rgb: [UInt8], frame: PixelSize, area: PixelRect) {
        self.area = area
        frameWidth = frame.width; frameHeight = frame.height
        var levels = [UInt8](repeating: 0, count: area.width * area.height)
        for y in 0..<area.height {
            var p = ((area.y + y) * frame.width + area.x) * 3
            for x in 0..<area.width {
                let r: Float = 0.299 * Float(rgb[p]), g: Float = 0.587 * Float(rgb[p + 1]), b: Float = 0.114 * Float(rgb[p + 2])
                levels[y * area.width + x] = UInt8(min(255, (r + g + b).rounded()))
                p += 3
            }
        }
        self.levels = levels
    }

    func grey(_ x: Int, _ y: Int) -> Float {
        let cx = min(area.width - 1, max(0, x - area.x)), cy = min(area.height - 1, max(0, y - area.y))
        return Float(levels[cy * area.width + cx])
    }

    /// Whether a step from `box` reads only pixels this crop holds (or that
    /// are off the frame, which the follower clamps to its edge either way).
    func reaches(around box: ImageRect) -> Bool {
        let (reach, step) = BoxFollower.reach(of: box)
        let m = reach + step + 1
        let x0 = max(0, Int((box.x - m).rounded(.down))), y0 = max(0, Int((box.y - m).rounded(.down)))
        let x1 = min(frameWidth, Int((box.x + box.width + m).rounded(.up))), y1 = min(frameHeight, Int((box.y + box.height + m).rounded(.up)))
        return x0 >= area.x && y0 >= area.y && x1 <= area.x + area.width && y1 <= area.y + area.height
    }
}

extension BackwardFollow {
    /// Reads frames by number: the first frame's presentation time and the
    /// rate give each frame's number; a range is read from the keyframe at
    /// or before it (from the start when the seek lands past it).
    struct Clock {
        let input: String, format: String?, maxPixels: Int, stop: RecordingStop
        let frame: PixelSize
        let first: Int64
        /// Time-base units a frame.
        let step: Double

        init(input: String, format: String?, maxPixels: Int, stop: RecordingStop) throws {
            (self.input, self.format, self.maxPixels, self.stop) = (input, format, maxPixels, stop)
            let reader = VideoReader()
            try reader.open(input, format: format, maxPixels: maxPixels)
            let info = reader.info
            frame = PixelSize(width: info.width, height: info.height)
            step = Double(info.timeBase.den) / Double(max(1, info.timeBase.num)) / info.framesPerSecond
            var pts: Int64?
            reading: while pts == nil {
                switch try reader.next() {
                case let .frame(_, t, _): pts = t
                case .packet: continue
                case .end: break reading
                }
            }
            guard let pts else { throw VeilError.unreadable(path: input, reason: "no video frame") }
            first = pts
        }

        func number(_ pts: Int64) -> Int { Int((Double(pts - first) / step).rounded()) }

        /// Frames `range`'s grey crops of `area`, in order; fewer when the video ends first or the pass is stopped.
        func crops(_ range: ClosedRange<Int>, area: PixelRect) throws -> [GreyCrop] {
            for seek in [true, false] {
                let reader = VideoReader()
                try reader.open(input, format: format, maxPixels: maxPixels)
                if seek, range.lowerBound > 0 { try reader.seek(to: first + Int64((Double(range.lowerBound) * step).rounded(.down))) }
                var out: [GreyCrop] = []
                var landed = true
                reading: while !stop.isRequested {
                    switch try reader.next() {
                    case .end: break reading
                    case .packet: continue
                    case let .frame(pixels, pts, _):
                        let n = number(pts)
                        if out.isEmpty, n > range.lowerBound { landed = false; break reading }
                        if n < range.lowerBound { continue }
                        if n > range.upperBound { break reading }
                        out.append(GreyCrop(pixels, frame: frame, area: area))
                    }
                }
                if landed || !seek { return out }
            }
            return []
        }
    }
}

extension VideoAnonymizer {
    /// Re-rendering a whole video (not a segment or a view: `plan` asks only
    /// then): the boxes, before their key frame, of the added regions
    /// still to follow (by region id, then frame), found by a pass of their
    /// own on a thread of its own (FFmpeg's blocking reads). Cancelling the
    /// task stops it between frames.
    func followingBack(_ replay: VideoEditingState, input: String) async throws -> [Int: [Int: ImageRect]] {
        let regions = replay.manual.filter { $0.status == .covered && $0.follow && $0.followed == nil && $0.keys.count == 1 && $0.keys[0].frame > 0 }
        guard !regions.isEmpty else { return [:] }
        let stop = RecordingStop()
        let pass = BackwardFollow(input: input, format: source.format, maxPixels: source.maxFramePixels, stop: stop)
        let (w, h) = (Double(replay.source.width), Double(replay.source.height))
        let thread = IOThread(name: "veil-video-follow") { () -> Result<[Int: [Int: ImageRect]], Error> in
            Result {
                var out: [Int: [Int: ImageRect]] = [:]
                for region in regions {
                    let key = region.keys[0]
                    let box = ImageRect(x: key.box.x * w, y: key.box.y * h, width: key.box.width * w, height: key.box.height * h)
                    out[region.id] = try pass.follow(from: key.frame, box: box)
                }
                return out
            }
        }
        let result = await withTaskCancellationHandler { await thread.value } onCancel: { stop.request() }
        try Task.checkCancellation()
        return try result.get()
    }
}
