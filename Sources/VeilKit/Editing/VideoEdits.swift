/// What a person changed about a video's covers, without detecting again:
/// tracks dropped (uncovered for their whole life) or kept again, boxes
/// added (at key frames, interpolated; or one box, followed backward and forward), and
/// pen strokes painted over frame ranges, and the review confirmed. The
/// CLI's `--drop-track`, `--keep-track`, `--add`, `--stroke`, `--confirm`;
/// the same in the editor.
public struct VideoEdits: Sendable, Equatable {
    /// A box to add: one key (followed from its frame, both ways) or several (interpolated between).
    public struct Added: Sendable, Equatable {
        public var keys: [(frame: Int, box: ImageRect)]
        public init(keys: [(frame: Int, box: ImageRect)]) { self.keys = keys }
        public static func == (a: Added, b: Added) -> Bool {
            a.keys.count == b.keys.count && zip(a.keys, b.keys).allSatisfy { $0.frame == $1.frame && $0.box == $1.box }
        }
    }

    public var drop: [Int] = []
    public var keep: [Int] = []
    public var add: [Added] = []
    /// Pen strokes to paint on frames `first`...`last`, in pixels of the frame.
    public var strokes: [VideoEditingState.PenStroke] = []
    public var confirm = false

    public init(drop: [Int] = [], keep: [Int] = [], add: [Added] = [], strokes: [VideoEditingState.PenStroke] = [], confirm: Bool = false) {
        self.drop = drop; self.keep = keep; self.add = add; self.strokes = strokes; self.confirm = confirm
    }

    public var isEmpty: Bool { drop.isEmpty && keep.isEmpty && add.isEmpty && strokes.isEmpty && !confirm }
}

extension VideoEditingState {
    /// Applies `edits`; an id that names no track or region is an error.
    /// Boxes are in pixels of the stored frame.
    public mutating func apply(_ edits: VideoEdits) throws {
        func set(_ id: Int, _ status: Status) throws {
            if let t = tracks.firstIndex(where: { $0.id == id }) { tracks[t].status = status; return }
            if let m = manual.firstIndex(where: { $0.id == id }) { manual[m].status = status; return }
            let known = (tracks.map(\.id) + manual.map(\.id)).sorted()
            throw VeilError.invalidArgument("there is no track \(id) (tracks: \(known.isEmpty ? "none" : known.count > 12 ? "\(known.first!)...\(known.last!)" : known.map(String.init).joined(separator: ", ")))")
        }
        for id in edits.drop { try set(id, .dropped) }
        for id in edits.keep { try set(id, .covered) }
        let size = PixelSize(width: source.width, height: source.height)
        for added in edits.add {
            let keys = added.keys.sorted { $0.frame < $1.frame }.map { Key(frame: $0.frame, box: EditingState.Box($0.box, in: size)) }
            manual.append(Manual(id: nextID, status: .covered, keys: keys, follow: keys.count == 1, followed: nil))
        }
        paint(edits.strokes)
        if edits.confirm { confirmed = true }
        try validate(folder: nil, allowingImageStyle: true)
    }
}
