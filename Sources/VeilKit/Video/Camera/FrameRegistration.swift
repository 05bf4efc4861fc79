import Foundation

/// How the camera moved between two frames, read from their thumbnails:
/// blocks of the new frame are looked for in the old one, coarse to fine
/// (a whole-pixel search at half the thumbnail's size, refined at its size
/// to a fraction of a pixel), and the motion most blocks agree on is kept
/// (RANSAC over pairs of blocks, then least squares over those that agree).
/// Blocks without texture (sky, a wall, letterbox bars) and blocks on the
/// faces being tracked are left out: they move on their own, or not at all.
enum FrameRegistration {
    /// A frame's thumbnail at two sizes.
    struct Pyramid {
        let fine: GreyThumbnail
        let coarse: GreyThumbnail
        init(_ fine: GreyThumbnail) { self.fine = fine; coarse = GreyThumbnail(halving: fine) }
    }

    struct Result {
        /// Previous frame → this one, in frame pixels; nil when the blocks
        /// agree on none (a cut, a frame without texture).
        var motion: CameraMotion?
        /// Textured blocks looked for, those found (a distinct best match),
        /// and those that moved as `motion` says.
        var looked: Int, blocks: Int, inliers: Int
        /// The mean grey-level difference a pixel of the agreeing blocks
        /// kept at its best match (fine thumbnail).
        var residual: Double
        var agreement: Double { blocks > 0 ? Double(inliers) / Double(blocks) : 0 }
    }

    /// Coarse blocks' side and search reach (coarse pixels: at 960x540 a
    /// coarse pixel is 8 frame pixels, so the reach is ±48 px a frame, past
    /// a hand-held phone's jitter and a fast pan).
    static let block = 8, reach = 6
    /// The reach across a gap: frames a live view dropped between the two
    /// (`reach(gap:)`). A camera moves as far in each frame not seen, so the
    /// reach grows with the gap, up to 16 coarse pixels (the search's cost
    /// grows with its square) and never past what the coarse thumbnail's
    /// margins leave room for (`register`: a quarter of its short side, 14
    /// at 16:9, so ±112 px at 960x540: a fast pan over five frames).
    static let maxReach = 16

    /// The search reach for frames `gap` frames apart (1: consecutive).
    static func reach(gap: Int) -> Int { min(maxReach, reach * max(1, gap)) }
    static let grid = (columns: 8, rows: 5)
    /// A block's mean gradient below this (grey levels) has no texture to match.
    static let minTexture = 3
    /// A block agrees with a motion when it lands within this many fine pixels of it.
    static let inlierDistance = 1.0

    static func register(_ previous: Pyramid, _ current: Pyramid, avoiding: [ImageRect] = [], reach wanted: Int = FrameRegistration.reach) -> Result {
        let c = current.coarse, p = previous.coarse
        // A wider reach leaves the blocks a narrower band: at most a quarter of the short side either way.
        let reach = max(Self.reach, min(wanted, (min(c.width, c.height) - block) / 4))
        guard c.width == p.width, c.height == p.height, c.width >= block + 2 * reach + 1, c.height >= block + 2 * reach + 1 else {
            return Result(motion: nil, looked: 0, blocks: 0, inliers: 0, residual: .infinity)
        }
        let origins = blockOrigins(c, avoiding: avoiding, reach: reach)
        var pairs: [(from: (Double, Double), to: (Double, Double), cost: Double)] = []
        for (bx, by) in origins {
            guard let (dx, dy) = coarseSearch(p, c, bx, by, reach: reach) else { continue }
            let (fx, fy, cost) = fineSearch(previous.fine, current.fine, 2 * bx, 2 * by, 2 * dx, 2 * dy)
            let centre = (Double(2 * bx + block), Double(2 * by + block))
            pairs.append(((centre.0 + fx, centre.1 + fy), centre, cost))
        }
        guard let (motion, inliers) = consensus(pairs) else {
            return Result(motion: nil, looked: origins.count, blocks: pairs.count, inliers: 0, residual: .infinity)
        }
        let residual = inliers.map { pairs[$0].cost }.reduce(0, +) / Double(max(1, inliers.count))
        return Result(motion: motion.scaled(by: Double(current.fine.factor)), looked: origins.count, blocks: pairs.count, inliers: inliers.count, residual: residual)
    }

    /// The blocks' top-left corners (coarse pixels) on an even grid inside
    /// the search's margin, textured and off the tracked faces (unless that
    /// leaves fewer than six: a close-up is mostly face).
    static func blockOrigins(_ t: GreyThumbnail, avoiding: [ImageRect], reach: Int = FrameRegistration.reach) -> [(Int, Int)] {
        let (nx, ny) = grid
        let spanX = t.width - block - 2 * reach, spanY = t.height - block - 2 * reach
        var textured: [(Int, Int)] = [], clear: [(Int, Int)] = []
        let scale = Double(t.factor)
        for j in 0..<ny {
            for i in 0..<nx {
                let bx = reach + (nx == 1 ? spanX / 2 : i * spanX / (nx - 1))
                let by = reach + (ny == 1 ? spanY / 2 : j * spanY / (ny - 1))
                guard texture(t, bx, by) >= minTexture * block * block else { continue }
                textured.append((bx, by))
                let r = ImageRect(x: Double(bx) * scale, y: Double(by) * scale, width: Double(block) * scale, height: Double(block) * scale)
                if !avoiding.contains(where: { $0.intersection(r) != nil }) { clear.append((bx, by)) }
            }
        }
        return clear.count >= 6 ? clear : textured
    }

    /// The sum of absolute horizontal and vertical differences inside a block.
    static func texture(_ t: GreyThumbnail, _ bx: Int, _ by: Int) -> Int {
        t.pixels.withUnsafeBufferPointer { px in
            var sum = 0
            for y in by..<(by + block) {
                for x in bx..<(bx + block) {
                    let v = Int(px[y * t.width + x])
                    sum += abs(v - Int(px[y * t.width + x + 1])) + abs(v - Int(px[(y + 1) * t.width + x]))
                }
            }
            return sum
        }
    }

    /// Sum of absolute differences between the `size` block of `a` at
    /// (ax, ay) and of `b` at (bx, by); both inside their pictures.
    @inline(__always)
    static func sad(_ a: UnsafeBufferPointer<UInt8>, _ aw: Int, _ ax: Int, _ ay: Int,
                    _ b: UnsafeBufferPointer<UInt8>, _ bw: Int, _ bx: Int, _ by: Int, size: Int) -> Int {
        var sum = 0
        for y in 0..<size {
            let ra = (ay + y) * aw + ax, rb = (by + y) * bw + bx
            for x in 0..<size { sum &+= abs(Int(a[ra + x]) &- Int(b[rb + x])) }
        }
        return sum
    }

    /// The whole-pixel shift (coarse) at which the block of `c` at (bx, by)
    /// best matches `p`; nil when the best is not clearly better than a
    /// shift two pixels away from it (a block along an edge or a repeated
    /// pattern has no one answer).
    static func coarseSearch(_ p: GreyThumbnail, _ c: GreyThumbnail, _ bx: Int, _ by: Int, reach: Int = FrameRegistration.reach) -> (Int, Int)? {
        p.pixels.withUnsafeBufferPointer { pp in
            c.pixels.withUnsafeBufferPointer { cp in
                var costs = [Int](repeating: 0, count: (2 * reach + 1) * (2 * reach + 1))
                var best = (cost: Int.max, dx: 0, dy: 0)
                for dy in -reach...reach {
                    for dx in -reach...reach {
                        let cost = sad(cp, c.width, bx, by, pp, p.width, bx + dx, by + dy, size: block)
                        costs[(dy + reach) * (2 * reach + 1) + dx + reach] = cost
                        if cost < best.cost { best = (cost, dx, dy) }
                    }
                }
                var runnerUp = Int.max
                for dy in -reach...reach {
                    for dx in -reach...reach where max(abs(dx - best.dx), abs(dy - best.dy)) >= 2 {
                        runnerUp = min(runnerUp, costs[(dy + reach) * (2 * reach + 1) + dx + reach])
                    }
                }
                // Distinct: the runner-up costs a quarter more, and a grey level a pixel more.
                guard runnerUp > best.cost + best.cost / 4 + block * block else { return nil }
                return (best.dx, best.dy)
            }
        }
    }

    /// Refines a coarse shift on the fine thumbnails (±2 fine pixels, then a
    /// parabola through the costs beside the best for the fraction): the
    /// shift in fine pixels and the best match's mean difference a pixel.
    static func fineSearch(_ p: GreyThumbnail, _ c: GreyThumbnail, _ bx: Int, _ by: Int, _ sx: Int, _ sy: Int) -> (Double, Double, Double) {
        let size = 2 * block, r = 2
        return p.pixels.withUnsafeBufferPointer { pp in
            c.pixels.withUnsafeBufferPointer { cp in
                var costs = [Int](repeating: Int.max, count: (2 * r + 1) * (2 * r + 1))
                var best = (cost: Int.max, dx: 0, dy: 0)
                for dy in -r...r {
                    for dx in -r...r {
                        let x = bx + sx + dx, y = by + sy + dy
                        guard x >= 0, y >= 0, x + size <= p.width, y + size <= p.height,
                              bx + size <= c.width, by + size <= c.height else { continue }
                        let cost = sad(cp, c.width, bx, by, pp, p.width, x, y, size: size)
                        costs[(dy + r) * (2 * r + 1) + dx + r] = cost
                        if cost < best.cost { best = (cost, dx, dy) }
                    }
                }
                guard best.cost != Int.max else { return (Double(sx), Double(sy), .infinity) }
                func at(_ dx: Int, _ dy: Int) -> Int? {
                    guard abs(dx) <= r, abs(dy) <= r else { return nil }
                    let v = costs[(dy + r) * (2 * r + 1) + dx + r]; return v == Int.max ? nil : v
                }
                func vertex(_ minus: Int?, _ centre: Int, _ plus: Int?) -> Double {
                    guard let m = minus, let q = plus else { return 0 }
                    let d = Double(m - 2 * centre + q)
                    return d > 0 ? min(0.5, max(-0.5, 0.5 * Double(m - q) / d)) : 0
                }
                let fx = vertex(at(best.dx - 1, best.dy), best.cost, at(best.dx + 1, best.dy))
                let fy = vertex(at(best.dx, best.dy - 1), best.cost, at(best.dx, best.dy + 1))
                return (Double(sx + best.dx) + fx, Double(sy + best.dy) + fy, Double(best.cost) / Double(size * size))
            }
        }
    }

    /// The motion most pairs agree on: every two pairs far enough apart
    /// propose one (a plausible camera's: scale within 0.7...1.4, a roll
    /// under 15°), the one most pairs land within `inlierDistance` of wins,
    /// and least squares over those gives the answer. Nil unless at least
    /// four pairs and 40% of them agree.
    static func consensus(_ pairs: [(from: (Double, Double), to: (Double, Double), cost: Double)]) -> (CameraMotion, [Int])? {
        guard pairs.count >= 4 else { return nil }
        func agreeing(_ m: CameraMotion) -> [Int] {
            pairs.indices.filter { k in
                let q = m.apply(pairs[k].from.0, pairs[k].from.1)
                return hypot(q.x - pairs[k].to.0, q.y - pairs[k].to.1) <= inlierDistance
            }
        }
        var best: [Int] = []
        for i in pairs.indices {
            for j in (i + 1)..<pairs.count {
                let (p, q) = (pairs[i].to, pairs[j].to)
                guard hypot(p.0 - q.0, p.1 - q.1) >= 16,
                      let m = CameraMotion.fit([pairs[i].from, pairs[j].from], [pairs[i].to, pairs[j].to]),
                      plausible(m) else { continue }
                let inliers = agreeing(m)
                if inliers.count > best.count { best = inliers }
            }
        }
        guard best.count >= 4, 5 * best.count >= 2 * pairs.count,
              let refit = CameraMotion.fit(best.map { pairs[$0].from }, best.map { pairs[$0].to }), plausible(refit) else { return nil }
        let final = agreeing(refit)
        return final.count >= best.count / 2 ? (refit, final) : (refit, best)
    }

    static func plausible(_ m: CameraMotion) -> Bool {
        (0.7...1.4).contains(m.scale) && abs(m.degrees) < 15
    }
}
