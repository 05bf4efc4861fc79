/// Follows one box a person drew from frame to frame, where no detector
/// will: a plate, a badge, a face the detector never saw. The box's grey
/// levels, sampled on a 16x16 grid, are looked for round where it was (up
/// to half its size away, coarse to fine), frame after frame; the template
/// drifts a little towards what it finds, so slow changes of light and
/// angle are followed. Lost (nil) when the best match differs by more than
/// `lostAt` grey levels on average, or the box leaves the frame.
struct BoxFollower {
    private(set) var box: ImageRect
    private var template: [Float]
    static let grid = 16
    let lostAt: Float = 28

    init?(_ pixels: [UInt8], width: Int, height: Int, box: ImageRect) {
        guard box.width >= 2, box.height >= 2, let t = BoxFollower.sample(pixels, width, height, box) else { return nil }
        self.box = box
        template = t
    }

    /// The box on the next frame, or nil once lost.
    mutating func follow(_ pixels: [UInt8], width: Int, height: Int) -> ImageRect? {
        let reach = max(4, 0.5 * max(box.width, box.height))
        var best = (cost: Float.infinity, dx: 0.0, dy: 0.0)
        func look(_ dx: Double, _ dy: Double) {
            let moved = ImageRect(x: box.x + dx, y: box.y + dy, width: box.width, height: box.height)
            guard let s = BoxFollower.sample(pixels, width, height, moved) else { return }
            var cost: Float = 0
            for i in s.indices { cost += abs(s[i] - template[i]) }
            if cost < best.cost { best = (cost, dx, dy) }
        }
        let step = max(1, (reach / 6).rounded())
        for dy in stride(from: -reach, through: reach, by: step) { for dx in stride(from: -reach, through: reach, by: step) { look(dx, dy) } }
        let (cx, cy) = (best.dx, best.dy)
        for dy in stride(from: cy - step + 1, to: cy + step, by: 1) { for dx in stride(from: cx - step + 1, to: cx + step, by: 1) { look(dx, dy) } }
        guard best.cost.isFinite, best.cost / Float(template.count) <= lostAt else { return nil }
        box = ImageRect(x: box.x + best.dx, y: box.y + best.dy, width: box.width, height: box.height)
        if let now = BoxFollower.sample(pixels, width, height, box) {
            for i in template.indices { template[i] = 0.8 * template[i] + 0.2 * now[i] }
        }
        return box
    }

    /// Grey levels of `box` on the grid (nearest pixel), nil when its centre is off the frame.
    static func sample(_ pixels: [UInt8], _ width: Int, _ height: Int, _ box: ImageRect) -> [Float]? {
        guard box.midX >= 0, box.midY >= 0, box.midX < Double(width), box.midY < Double(height) else { return nil }
        var out = [Float](repeating: 0, count: grid * grid)
        for gy in 0..<grid {
            let y = min(height - 1, max(0, Int(box.y + (Double(gy) + 0.5) * box.height / Double(grid))))
            for gx in 0..<grid {
                let x = min(width - 1, max(0, Int(box.x + (Double(gx) + 0.5) * box.width / Double(grid))))
                let p = (y * width + x) * 3
                out[gy * grid + gx] = 0.299 * Float(pixels[p]) + 0.587 * Float(pixels[p + 1]) + 0.114 * Float(pixels[p + 2])
            }
        }
        return out
    }
}
