import Foundation

/// One picture of whom a video's editing state covers, for a reviewer
/// choosing `--drop-track` or `--merge-tracks` by face rather than by
/// number: a thumbnail a track, from its best sighting (the detector's most
/// confident, else its middle one), with its id, frames and times beneath;
/// dropped tracks labelled in red, added regions in blue. Where the state has
/// people, a person's tracks are together (a person of several tracks on rows
/// of its own), each label led by its person ("P2").
public enum TrackSheet {
    /// Thumbnails' side, and how many go in a row.
    public static let cell = 112, columns = 8

    struct Pick { let id: Int; let frame: Int; let box: EditingState.Box; let label: String; let color: RGB; var person: Int? = nil }

    /// The sheet of `state`'s tracks, read from `video` (the input the state
    /// was made from: its frames are decoded once, in order, up to the last
    /// one a thumbnail needs). At most `maxTracks`, longest first past that.
    public static func render(_ state: VideoEditingState, video: URL, maxTracks: Int = 400) throws -> VeilImage {
        // Times on the video's own clock, as a player shows them (a start offset, VFR), not frame ÷ fps.
        func label(_ id: Int, _ frames: [Int]) -> String {
            let (first, last) = (frames.first ?? 0, frames.last ?? 0)
            return String(format: "%d  %d-%d  %.1f-%.1fs", id, first, last, state.time(ofFrame: first), state.time(ofFrame: last))
        }
        var picks = state.tracks.compactMap { t -> Pick? in
            guard !t.frames.isEmpty else { return nil }
            let best = t.frames.filter(\.detected).max { $0.score < $1.score } ?? t.frames[t.frames.count / 2]
            return Pick(id: t.id, frame: best.frame, box: best.box, label: (t.person.map { "P\($0) " } ?? "") + label(t.id, t.frames.map(\.frame)),
                        color: ReviewColors.of(t.status, else: ReviewColors.covered), person: t.person)
        }
        picks += state.manual.compactMap { m -> Pick? in
            let seen = m.followed.map { $0.map { (frame: $0.frame, box: $0.box) } } ?? m.keys.map { (frame: $0.frame, box: $0.box) }
            guard let key = m.keys.first else { return nil }
            return Pick(id: m.id, frame: key.frame, box: key.box, label: label(m.id, seen.map(\.frame)) + " +",
                        color: ReviewColors.of(m.status, else: ReviewColors.added))
        }
        if picks.count > maxTracks {
            let length = Dictionary(uniqueKeysWithValues: state.tracks.map { ($0.id, $0.frames.count) })
            picks = Array(picks.sorted { (length[$0.id] ?? 0) > (length[$1.id] ?? 0) }.prefix(maxTracks)).sorted { $0.id < $1.id }
        }
        // Grouped by person (where the state has people): a person's tracks together, each person from a new row.
        if state.hasPeople {
            picks = picks.enumerated().sorted { a, b in
                (a.element.person ?? Int.max, a.offset) < (b.element.person ?? Int.max, b.offset)
            }.map(\.element)
        }
        // A person of several tracks starts a row, and the next person starts another; people of one track flow on together.
        var count: [Int: Int] = [:]
        for pick in picks { if let p = pick.person { count[p, default: 0] += 1 } }
        func several(_ person: Int?) -> Bool { person.map { (count[$0] ?? 0) > 1 } ?? false }
        var cells: [(column: Int, row: Int)] = []
        for (i, pick) in picks.enumerated() {
            guard let last = cells.last else { cells.append((0, 0)); continue }
            let newPerson = pick.person != picks[i - 1].person && (several(pick.person) || several(picks[i - 1].person))
            cells.append(last.column + 1 < columns && !newPerson ? (last.column + 1, last.row) : (0, last.row + 1))
        }
        let thumbnails = try crops(of: picks, from: video)
        let rows = max(1, (cells.last?.row ?? 0) + 1)
        let labelHeight = 14, pitch = (w: cell + 8, h: cell + labelHeight + 12)
        let canvas = try Canvas(try VeilImage.constant(RGB(24, 26, 30), size: PixelSize(width: columns * pitch.w + 8, height: rows * pitch.h + 8)))
        for (i, pick) in picks.enumerated() {
            let (x, y) = (8 + cells[i].column * pitch.w, 8 + cells[i].row * pitch.h)
            if let thumb = thumbnails[i] {
                try canvas.paste(thumb, x: x + (cell - thumb.width) / 2, y: y + (cell - thumb.height) / 2)
            }
            try canvas.rectangle(PixelRect(x: x - 1, y: y - 1, width: cell + 2, height: cell + 2), color: pick.color, thickness: 1)
            try canvas.label(pick.label, x: x - 1, y: y + cell + 3, height: labelHeight - 2, color: pick.color)
        }
        return try canvas.image
    }

    /// Each pick's face (its box grown 1.6x, within the frame), upright, fitted in a cell.
    static func crops(of picks: [Pick], from video: URL) throws -> [VeilImage?] {
        var wanted: [Int: [Int]] = [:]
        for (i, p) in picks.enumerated() { wanted[p.frame, default: []].append(i) }
        guard let last = wanted.keys.max() else { return [] }
        let reader = try VideoReader.review(video)
        let info = reader.info, rotation = ImageOrientation(clockwiseDegrees: info.rotation)
        let (w, h) = (Double(info.width), Double(info.height))
        var out = [VeilImage?](repeating: nil, count: picks.count)
        try reader.forEachFrame(through: last) { index, pixels, _ in
            guard let needed = wanted[index] else { return }
            let frame = try VeilImage(pixels: pixels, width: info.width, height: info.height, bands: 3)
            for i in needed {
                let b = picks[i].box, side = 1.6 * max(b.width * w, b.height * h)
                let (cx, cy) = ((b.x + b.width / 2) * w, (b.y + b.height / 2) * h)
                let area = ImageRect(x: cx - side / 2, y: cy - side / 2, width: side, height: side)
                    .intersection(ImageRect(x: 0, y: 0, width: w, height: h))?.integral
                guard let area, area.width >= 2, area.height >= 2 else { continue }
                let face = try frame.cropped(to: area).applying(rotation)
                let scale = Double(cell) / Double(max(face.width, face.height))
                out[i] = try face.resized(width: max(1, Int(Double(face.width) * scale)), height: max(1, Int(Double(face.height) * scale)))
            }
        }
        return out
    }
}
