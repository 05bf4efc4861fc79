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

    public init(add: [ImageRect] = [], drop: [Int] = [], strokes: [Stroke] = [], confirm: Bool = false) {
        self.add = add; self.drop = drop; self.strokes = strokes; self.confirm = confirm
    }

    public var isEmpty: Bool { add.isEmpty && drop.isEmpty && strokes.isEmpty && !confirm }
}

extension EditingState {
    /// Applies `edits`. Adding or dropping a region confirms the list: from then
    /// on it is exactly the user's, whatever the detector said.
    public mutating func apply(_ edits: RegionEdits) throws {
        let size = self.size
        if !edits.drop.isEmpty || !edits.add.isEmpty || edits.confirm {
            var list = effectiveRegions
            let detectedCount: Int
            if case let .recognized(_, faces) = faces { detectedCount = faces.count } else { detectedCount = 0 }
            for index in edits.drop {
                guard index >= 0, index < detectedCount else {
                    throw VeilError.invalidArgument("--drop \(index): there are \(detectedCount) detected faces (0...\(max(0, detectedCount - 1)))")
                }
                list.removeAll { $0.face == index }
            }
            for rect in edits.add {
                guard rect.width > 0, rect.height > 0 else { throw VeilError.invalidArgument("--add needs a positive width and height") }
                list.append(Region(box: Box(rect, in: size), face: nil))
            }
            regions = .confirmed(list)
        }
        let longest = Double(max(size.width, size.height))
        for stroke in edits.strokes {
            strokes.append(Stroke(points: stroke.points.map { [$0.x / Double(size.width), $0.y / Double(size.height)] }, width: stroke.width / longest))
        }
    }
}
