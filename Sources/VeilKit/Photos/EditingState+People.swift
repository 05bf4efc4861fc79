import Foundation

/// The people of a photo in its editing state (`--cover people`): each person
/// found, their silhouette, and whether it is covered (`--drop pN`,
/// `--undrop pN`), so a person can be uncovered and covered again without
/// running the models again.
extension EditingState {
    public struct PeopleRegions: Codable, Sendable, Equatable {
        public var items: [PersonRegion]
        public init(items: [PersonRegion]) { self.items = items }
    }

    /// One person: the face they were found by, their silhouette as spans
    /// of rows on a pixel `grid` (the mask's own size; a band of rows each,
    /// the union of the band's rows, so the spans never cover less than the
    /// mask), and whether they are covered. Stored compactly, as a crowd has
    /// thousands of spans: `"grid": [w, h], "spans": "y h x w;y h x w;..."`.
    public struct PersonRegion: Codable, Sendable, Equatable {
        public var face: Box
        public var grid: [Int]
        /// `[y, height, x, width]` in grid pixels.
        public var spans: [[Int]]
        public var covered: Bool
        public init(face: Box, grid: [Int], spans: [[Int]], covered: Bool) {
            self.face = face; self.grid = grid; self.spans = spans; self.covered = covered
        }

        enum CodingKeys: String, CodingKey { case face, grid, spans, covered }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            face = try c.decode(Box.self, forKey: .face)
            grid = try c.decode([Int].self, forKey: .grid)
            covered = try c.decode(Bool.self, forKey: .covered)
            let text = try c.decode(String.self, forKey: .spans)
            guard text.utf8.count <= 4_000_000 else { throw DecodingError.dataCorruptedError(forKey: .spans, in: c, debugDescription: "too long") }
            spans = try text.split(separator: ";").map { span in
                let n = span.split(separator: " ").compactMap { Int($0) }
                guard n.count == 4 else { throw DecodingError.dataCorruptedError(forKey: .spans, in: c, debugDescription: "a span is 'y h x w', not '\(span)'") }
                return n
            }
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(face, forKey: .face)
            try c.encode(grid, forKey: .grid)
            try c.encode(covered, forKey: .covered)
            try c.encode(spans.map { $0.map(String.init).joined(separator: " ") }.joined(separator: ";"), forKey: .spans)
        }

        /// The smallest box holding the silhouette (normalized).
        public var extent: Box? {
            guard !spans.isEmpty, grid.count == 2, grid[0] > 0, grid[1] > 0 else { return nil }
            let (gw, gh) = (Double(grid[0]), Double(grid[1]))
            let x0 = spans.map { $0[2] }.min()!, y0 = spans.map { $0[0] }.min()!
            let x1 = spans.map { $0[2] + $0[3] }.max()!, y1 = spans.map { $0[0] + $0[1] }.max()!
            return Box(x: Double(x0) / gw, y: Double(y0) / gh, width: Double(x1 - x0) / gw, height: Double(y1 - y0) / gh)
        }
    }

    /// The covered people as filled rectangles, in pixels: covered with the
    /// pen's hard edge, exactly to the silhouette's spans.
    public func coveredPeople() -> [VeilKit.Stroke] {
        let w = Double(source.width), h = Double(source.height)
        return (people?.items ?? []).filter(\.covered).flatMap { person in
            let (sx, sy) = (w / Double(person.grid[0]), h / Double(person.grid[1]))
            return person.spans.map { s in
                let (x0, y0) = (Double(s[2]) * sx, Double(s[0]) * sy), (x1, y1) = (Double(s[2] + s[3]) * sx, Double(s[0] + s[1]) * sy)
                return VeilKit.Stroke(points: [.init(x: x0, y: y0), .init(x: x1, y: y0), .init(x: x1, y: y1), .init(x: x0, y: y1)],
                                      width: 0, filled: true)
            }
        }
    }

    /// Every person covered again: what `--reset` does to `--drop pN`.
    mutating func resetPeople() {
        guard var people else { return }
        for i in people.items.indices { people.items[i].covered = true }
        self.people = people
    }

    static func validate(people: PeopleRegions, fail: (String) -> VeilError) throws {
        guard people.items.count <= Limits.regions else { throw fail("\(people.items.count) people; at most \(Limits.regions)") }
        var spans = 0
        for person in people.items {
            let b = person.face
            guard [b.x, b.y, b.width, b.height].allSatisfy({ $0.isFinite && Limits.coordinate.contains($0) }), b.width > 0, b.height > 0 else {
                throw fail("a person's face box is outside the image")
            }
            guard person.grid.count == 2, person.grid.allSatisfy(Limits.side.contains) else { throw fail("a person's grid is not [width, height]") }
            let (gw, gh) = (person.grid[0], person.grid[1])
            for s in person.spans {
                guard s.count == 4, s[0] >= 0, s[1] > 0, s[2] >= 0, s[3] > 0, s[0] <= gh - s[1], s[2] <= gw - s[3] else {
                    throw fail("a person's span is not 'y h x w' within its \(gw)x\(gh) grid")
                }
            }
            spans += person.spans.count
        }
        guard spans <= Limits.points else { throw fail("\(spans) person spans; at most \(Limits.points)") }
    }
}

/// What `--cover people` asks of a photo: its people, found and split one a person.
public struct PeopleCovering: Sendable {
    public var request: GeneratePersonInstanceMaskRequest
    /// Rows a span stands for, as a fraction of the longest side: 1/200
    /// keeps a silhouette's steps below a mosaic cell (1/60) and a crowd's
    /// state in tens of kilobytes.
    public var band = 1.0 / 200
    /// How far beyond the silhouette the cover reaches, as a fraction of the
    /// longest side: the mask's edge comes from a 256-pixel view of each
    /// person and is a few pixels off at hair, hands and loose clothes
    /// (what the margin covers and costs: docs/design/people.md#figures).
    public var margin = 1.0 / 100

    public init(request: GeneratePersonInstanceMaskRequest = .everyone) { self.request = request }

    /// The people of `image` (upright), normalized for the editing state, each covered.
    func regions(in image: VeilImage, device: ComputeDevice) async throws -> EditingState.PeopleRegions {
        var request = self.request
        request.segmentation.computeDevice = device
        guard let (found, faces) = try await request.people(in: image) else { return .init(items: []) }
        let labels = found.instanceMask
        let (w, h) = (labels.width, labels.height)
        let rows = max(1, Int((Double(max(w, h)) * band).rounded()))
        let reach = Int((Double(max(w, h)) * margin).rounded())
        let (sx, sy) = (Double(w) / Double(found.image.width), Double(h) / Double(found.image.height))
        var items: [EditingState.PersonRegion] = []
        for info in found.instances {
            let box = info.boundingBox
            // The person's pixels grown by the margin, over their box grown as much.
            let x0 = max(0, Int(Double(box.x) * sx) - reach), y0 = max(0, Int(Double(box.y) * sy) - reach)
            let x1 = min(w, Int((Double(box.x + box.width) * sx).rounded(.up)) + 1 + reach)
            let y1 = min(h, Int((Double(box.y + box.height) * sy).rounded(.up)) + 1 + reach)
            let (bw, bh) = (x1 - x0, y1 - y0)
            var mine = [Bool](repeating: false, count: bw * bh)
            for y in 0..<bh { for x in 0..<bw where labels.bytes[(y0 + y) * labels.bytesPerRow + x0 + x] == info.label { mine[y * bw + x] = true } }
            mine = Self.grown(mine, width: bw, height: bh, by: reach)
            var spans: [[Int]] = []
            var y = 0
            while y < bh {
                let band = y..<min(bh, y + rows)
                var x = 0
                while x < bw {
                    guard band.contains(where: { mine[$0 * bw + x] }) else { x += 1; continue }
                    let start = x
                    while x < bw, band.contains(where: { mine[$0 * bw + x] }) { x += 1 }
                    spans.append([y0 + band.lowerBound, band.count, x0 + start, x - start])
                }
                y += rows
            }
            let face = faces[info.label - 1]
            items.append(.init(face: EditingState.Box(x: face.x / Double(w), y: face.y / Double(h), width: face.width / Double(w),
                                                      height: face.height / Double(h)),
                               grid: [w, h], spans: spans, covered: true))
        }
        return .init(items: items)
    }

    /// `mask` grown by `radius` pixels (a square's reach): a running count
    /// along the rows, then the columns, so the cost is the pixels, whatever the radius.
    static func grown(_ mask: [Bool], width: Int, height: Int, by radius: Int) -> [Bool] {
        guard radius > 0 else { return mask }
        func pass(_ m: [Bool], count: Int, length: Int, at: (Int, Int) -> Int) -> [Bool] {
            var out = [Bool](repeating: false, count: m.count)
            for line in 0..<count {
                var inside = 0
                for k in 0..<min(radius, length) where m[at(line, k)] { inside += 1 }
                for k in 0..<length {
                    if k + radius < length, m[at(line, k + radius)] { inside += 1 }
                    if k - radius - 1 >= 0, m[at(line, k - radius - 1)] { inside -= 1 }
                    out[at(line, k)] = inside > 0
                }
            }
            return out
        }
        let across = pass(mask, count: height, length: width) { $0 * width + $1 }
        return pass(across, count: width, length: height) { $1 * width + $0 }
    }
}

extension GeneratePersonInstanceMaskRequest {
    /// Every person an instance (up to 255): what covering people needs.
    public static var everyone: GeneratePersonInstanceMaskRequest {
        var request = GeneratePersonInstanceMaskRequest()
        request.maximumInstances = 255
        return request
    }
}
