/// Follows one box a person drew from frame to frame, where no detector
/// will: a plate, a badge, a face the detector never saw. The box's grey
/// levels, sampled on a 16x16 grid, are looked for round where it was (up
/// to half its size away, coarse to fine), frame after frame; the template
/// drifts a little towards what it finds, so slow changes of light and
/// angle are followed. Lost (nil) when the best match differs by more than
/// `lostAt` grey levels on average, or suddenly by much more than it did
/// (`jumpFloor`), or the box leaves the frame. The same
/// rule runs forward (frames as they are rendered) and backward
/// (`BackwardFollow`, over small grey crops of earlier frames).
struct BoxFollower {
    private(set) var box: ImageRect
    private var template: [Float]
    /// The usual difference of a match so far (a running mean).
    private var typical: Float?
    static let grid = 16
    let lostAt: Float = 28
    /// Lost too when a match is suddenly worse than usual: three times the
    /// usual difference, and more than this. What leaves the frame is
    /// otherwise "found" in what stays (pan-small: 5 grey levels while the
    /// face is in view, 18 to 27 on the frames after it has gone out).
    let jumpFloor: Float = 12

    init?(_ picture: some GreyPicture, box: ImageRect) {
        guard box.width >= 2, box.height >= 2, let t = BoxFollower.sample(picture, box) else { return nil }
        self.box = box
        template = t
    }

    init?(_ pixels: [UInt8], width: Int, height: Int, box: ImageRect) {
        self.init(RGBFrame(pixels: pixels, frameWidth: width, frameHeight: height), box: box)
    }

    /// How far from the box a step may look: the reach (coarse) and the fine search's step.
    static func reach(of box: ImageRect) -> (reach: Double, step: Double) {
        let reach = max(4, 0.5 * max(box.width, box.height))
        return (reach, max(1, (reach / 6).rounded()))
    }

    /// The box on the next frame, or nil once lost.
    mutating func follow(_ pixels: [UInt8], width: Int, height: Int) -> ImageRect? {
        follow(RGBFrame(pixels: pixels, frameWidth: width, frameHeight: height))
    }

    /// The box on the next frame (or, backward, the one before), or nil once lost.
    mutating func follow(_ picture: some GreyPicture) -> ImageRect? {
        let (reach, step) = BoxFollower.reach(of: box)
        var best = (cost: Float.infinity, dx: 0.0, dy: 0.0)
        func look(_ dx: Double, _ dy: Double) {
            let moved = ImageRect(x: box.x + dx, y: box.y + dy, width: box.width, height: box.height)
            guard let s = BoxFollower.sample(picture, moved) else { return }
            var cost: Float = 0
            for i in s.indices { cost += abs(s[i] - template[i]) }
            if cost < best.cost { best = (cost, dx, dy) }
        }
        for dy in stride(from: -reach, through: reach, by: step) { for dx in stride(from: -reach, through: reach, by: step) { look(dx, dy) } }
        let (cx, cy) = (best.dx, best.dy)
        for dy in stride(from: cy - step + 1, to: cy + step, by: 1) { for dx in stride(from: cx - step + 1, to: cx + step, by: 1) { look(dx, dy) } }
        let cost = best.cost / Float(template.count)
        guard cost.isFinite, cost <= lostAt, cost <= max(jumpFloor, 3 * (typical ?? cost)) else { return nil }
        typical = typical.map { 0.8 * $0 + 0.2 * cost } ?? cost
        box = ImageRect(x: box.x + best.dx, y: box.y + best.dy, width: box.width, height: box.height)
        if let now = BoxFollower.sample(picture, box) {
            for i in template.indices { template[i] = 0.8 * template[i] + 0.2 * now[i] }
        }
        return box
    }

    /// Grey levels of `box` on the grid (nearest pixel), nil when its centre is off the frame.
    static func sample(_ picture: some GreyPicture, _ box: ImageRect) -> [Float]? {
        let (width, height) = (picture.frameWidth, picture.frameHeight)
        guard box.midX >= 0, box.midY >= 0, box.midX < Double(width), box.midY < Double(height) else { return nil }
        var out = [Float](repeating: 0, count: grid * grid)
        for gy in 0..<grid {
            let y = min(height - 1, max(0, Int(box.y + (Double(gy) + 0.5) * box.height / Double(grid))))
            for gx in 0..<grid {
                let x = min(width - 1, max(0, Int(box.x + (Double(gx) + 0.5) * box.width / Double(grid))))
                out[gy * grid + gx] = picture.grey(x, y)
            }
        }
        return out
    }
}

/// What `BoxFollower` reads: the grey levels of a frame (or of the part of
/// it a step can reach), addressed in the frame's pixels.
protocol GreyPicture {
    var frameWidth: Int { get }
    var frameHeight: Int { get }
    /// The grey level at (x, y), inside the frame.
    func grey(_ x: Int, _ y: Int) -> Float
}

/// A whole decoded frame, RGB.
struct RGBFrame: GreyPicture {
    let pixels: [UInt8]
    let frameWidth: Int, frameHeight: Int
    func grey(_ x: Int, _ y: Int) -> Float {
        let p = (y * frameWidth + x) * 3
        return 0.299 * Float(pixels[p]) + 0.587 * Float(pixels[p + 1]) + 0.114 * Float(pixels[p + 2])
    }
}
