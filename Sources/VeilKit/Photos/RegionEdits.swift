/// What a user changed about the regions to cover: the CLI's `--add`,
/// `--drop`, `--stroke` and `--confirm`, or a UI's taps and pen.
public struct RegionEdits: Sendable, Equatable {
    /// Boxes to add, in pixels of the upright image (origin top-left).
    public var add: [ImageRect] = []
    /// Detected faces (by index) not to cover.
    public var drop: [Int] = []
    /// Pen strokes to add, in pixels.
    public var strokes: [Stroke] = []
    /// Freeze the current list of regions as the user's.
    public var confirm = false
    /// Dropped faces (by index) to cover again: a drop undone.
    public var undrop: [Int] = []
    /// Text regions (by index, `tN`) not to cover, and to cover again.
    public var dropText: [Int] = []
    public var undropText: [Int] = []
    /// People (by index, `pN`) not to cover, and to cover again.
    public var dropPeople: [Int] = []
    public var undropPeople: [Int] = []
    /// Back to what the detector found: drawn boxes, drops and pen strokes
    /// gone (applied before the other edits).
    public var reset = false

    public init(add: [ImageRect] = [], drop: [Int] = [], strokes: [Stroke] = [], confirm: Bool = false,
                undrop: [Int] = [], reset: Bool = false) {
        self.add = add; self.drop = drop; self.strokes = strokes; self.confirm = confirm; self.undrop = undrop; self.reset = reset
    }

    public var isEmpty: Bool {
        add.isEmpty && drop.isEmpty && strokes.isEmpty && !confirm && undrop.isEmpty && !reset && dropText.isEmpty && undropText.isEmpty
            && dropPeople.isEmpty && undropPeople.isEmpty
    }
}

extension EditingState {
    /// Applies `edits`. Adding or dropping a region confirms the list: from then
    /// on it is exactly the user's, whatever the detector said.
    public mutating func apply(_ edits: RegionEdits) throws {
        let size = self.size
        if edits.reset {
            regions = .notYet
            strokes = []
            resetText()
            resetPeople()
        }
        if !edits.drop.isEmpty || !edits.add.isEmpty || edits.confirm || !edits.undrop.isEmpty {
            var list = effectiveRegions
            let detected: [Face]
            if case let .recognized(_, faces) = faces { detected = faces } else { detected = [] }
            let detectedCount = detected.count
            for index in edits.undrop {
                guard index >= 0, index < detectedCount else {
                    throw VeilError.invalidArgument("cannot undrop face \(index): there are \(detectedCount) detected faces (0...\(max(0, detectedCount - 1)))")
                }
                if !list.contains(where: { $0.face == index }) { list.append(Region(box: detected[index].box, face: index)) }
            }
            for index in edits.drop {
                guard index >= 0, index < detectedCount else {
                    throw VeilError.invalidArgument("cannot drop face \(index): there are \(detectedCount) detected faces (0...\(max(0, detectedCount - 1)))")
                }
                list.removeAll { $0.face == index }
            }
            let image = ImageRect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
            for rect in edits.add {
                // Clipped to the photo: what lies outside it covers nothing.
                guard let inside = rect.intersection(image) else {
                    throw VeilError.invalidArgument("the added box \(rect) lies outside the \(size.width)x\(size.height) photo")
                }
                list.append(Region(box: Box(inside, in: size), face: nil))
            }
            regions = .confirmed(list)
        }
        try applyToggles(\.texts, drop: edits.dropText, undrop: edits.undropText,
                         none: "text regions (cover text with --cover text)", named: "text t", counted: "text regions")
        try applyToggles(\.people, drop: edits.dropPeople, undrop: edits.undropPeople,
                         none: "people (cover them with --cover people)", named: "person p", counted: "people")
        let longest = Double(max(size.width, size.height))
        // Points kept within a photo's width of the photo, widths within its
        // longest side: a stroke can cross the photo, never make the work unbounded.
        let limit = EditingState.Limits.coordinate
        func clamp(_ v: Double) -> Double { min(max(v, limit.lowerBound), limit.upperBound) }
        for stroke in edits.strokes {
            strokes.append(Stroke(points: stroke.points.map { ImageRect.Point(x: clamp($0.x / Double(size.width)), y: clamp($0.y / Double(size.height))) },
                                  width: min(stroke.width / longest, 1)))
        }
        try validate(folder: nil, allowingImageStyle: true)
    }
}

extension EditingState {
    /// Text regions covered again as their match chose them when found
    /// (every region without a match): what `--reset` does to `--drop tN`.
    mutating func resetText() {
        guard var texts else { return }
        let match = texts.match.flatMap { try? TextMatch($0) }
        let w = Double(source.width), h = Double(source.height)
        let lines = texts.items.map { (corners: $0.corners.map { ImageRect.Point(x: $0[0] * w, y: $0[1] * h) }, text: $0.text ?? "") }
        let chosen = match.map { $0.matches(lines) } ?? lines.map { _ in true }
        for i in texts.items.indices { texts.items[i].covered = chosen[i] }
        self.texts = texts
    }

    /// Uncovers, then covers again, regions of one kind (`\.texts`,
    /// `\.people`) by index; a state without them refuses, saying it has `none`.
    mutating func applyToggles<Regions: CoverableRegions>(_ kind: WritableKeyPath<EditingState, Regions?>, drop: [Int], undrop: [Int],
                                                        none: String, named: String, counted: String) throws {
        guard !drop.isEmpty || !undrop.isEmpty else { return }
        guard var regions = self[keyPath: kind] else { throw VeilError.invalidArgument("this photo's state has no \(none)") }
        try Self.toggle(&regions.items, drop: drop, undrop: undrop) { covered, index, count in
            "cannot \(covered ? "undrop" : "drop") \(named)\(index): there are \(count) \(counted)"
        }
        self[keyPath: kind] = regions
    }

    /// The `covered` of `items` by index: `undrop` set, then `drop` cleared;
    /// an index that is not there is refused in `message`'s words.
    static func toggle<Item: CoverableRegion>(_ items: inout [Item], drop: [Int], undrop: [Int],
                                              message: (_ covered: Bool, _ index: Int, _ count: Int) -> String) throws {
        for (indices, cover) in [(undrop, true), (drop, false)] {
            for index in indices {
                guard items.indices.contains(index) else { throw VeilError.invalidArgument(message(cover, index, items.count)) }
                items[index].covered = cover
            }
        }
    }
}

/// Regions the user covers and uncovers by index (`--drop tN`, `--drop pN`).
protocol CoverableRegions {
    associatedtype Item: CoverableRegion
    var items: [Item] { get set }
}
protocol CoverableRegion { var covered: Bool { get set } }
extension EditingState.TextRegions: CoverableRegions {}
extension EditingState.PeopleRegions: CoverableRegions {}
extension EditingState.TextRegion: CoverableRegion {}
extension EditingState.PersonRegion: CoverableRegion {}
