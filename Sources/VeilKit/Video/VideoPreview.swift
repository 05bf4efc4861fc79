import Foundation

/// A review video of what a video's editing state covers: the input's own
/// frames (nothing covered, so a reviewer sees whom each box is on) with every
/// track's box and id drawn where the state has it — covered in green,
/// dropped in red, added regions in blue ("+"), text in violet ("t") — so
/// `--drop-track` and `--merge-tracks` can be chosen by watching, not by
/// number. Drawn upright (a phone's rotated clip reads the right way up),
/// encoded small (CRF 28), the input's audio copied. Written to a temporary
/// name and renamed when finished.
public enum VideoPreview {
    /// One box to draw on a frame, in pixels of the stored frame.
    struct Mark { let label: String; let box: ImageRect; let color: RGB }

    /// What the state draws on `frame`.
    static func marks(_ state: VideoEditingState, at frame: Int) -> [Mark] {
        let (w, h) = (Double(state.source.width), Double(state.source.height))
        func pixels(_ b: EditingState.Box) -> ImageRect { ImageRect(x: b.x * w, y: b.y * h, width: b.width * w, height: b.height * h) }
        let dropped = RGB(255, 60, 60)
        var out: [Mark] = []
        for track in state.tracks {
            guard let s = track.sighting(at: frame) else { continue }
            out.append(Mark(label: "\(track.id)", box: pixels(s.box), color: track.status == .dropped ? dropped : RGB(60, 230, 90)))
        }
        for region in state.manual {
            guard let b = region.box(at: frame) else { continue }
            out.append(Mark(label: "\(region.id)+", box: pixels(b), color: region.status == .dropped ? dropped : RGB(80, 160, 255)))
        }
        for track in state.texts ?? [] {
            guard let s = track.sighting(at: frame) else { continue }
            out.append(Mark(label: "t\(track.id)", box: pixels(s.box), color: track.status == .dropped ? dropped : RGB(200, 120, 255)))
        }
        return out
    }

    /// Writes the preview of `state` over `video` (the input it was made from) to `output`.
    public static func write(_ state: VideoEditingState, video: URL, to output: URL) throws {
        let reader = VideoReader()
        try reader.open(video.path, format: nil, maxPixels: VideoAnonymizer().maxFramePixels)
        let info = reader.info
        guard info.width == state.source.width, info.height == state.source.height else {
            throw VeilError.invalidArgument("\(video.lastPathComponent) is \(info.width)x\(info.height), its state's video \(state.source.width)x\(state.source.height): not the input the state was made from")
        }
        let rotation = ImageOrientation(clockwiseDegrees: info.rotation)
        let target = OutputTarget(output.path, explicitFormat: nil)
        target.sweepStale()
        var options = VideoWriter.Options()
        options.format = target.impliedFormat
        options.crf = 28
        do {
            let writer = try VideoWriter(url: target.writePath, streams: reader.streams(), options: options)
            let stored = PixelSize(width: info.width, height: info.height)
            let upright = rotation == .right || rotation == .left ? PixelSize(width: info.height, height: info.width) : stored
            // Even and at least 4 px: a thinner line loses its colour to 4:2:0 chroma.
            let thickness = max(4, min(upright.width, upright.height) / 360 * 2)
            let textHeight = max(12, min(upright.width, upright.height) / 36)
            var texts: [String: Canvas.Text] = [:]
            var index = 0
            reading: while true {
                switch try reader.next() {
                case let .packet(packet): try writer.write(packet)
                case .end: break reading
                case let .frame(pixels, pts):
                    defer { index += 1 }
                    let marks = marks(state, at: index)
                    guard !marks.isEmpty else { try writer.write(frame: pixels, pts: pts); continue }
                    let canvas = try Canvas(try VeilImage(pixels: pixels, width: info.width, height: info.height, bands: 3).applying(rotation))
                    for mark in marks {
                        let r = rotation.uprightRect(for: mark.box, storedSize: stored).integral
                        try canvas.rectangle(r, color: mark.color, thickness: thickness)
                        let text = try texts[mark.label] ?? Canvas.Text(mark.label, height: textHeight)
                        texts[mark.label] = text
                        let y = r.y - text.height - 2 >= 0 ? r.y - text.height - 2 : min(upright.height - text.height, r.y + r.height + 2)
                        try canvas.label(text, x: min(max(0, r.x), max(0, upright.width - text.width)), y: max(0, y), color: mark.color)
                    }
                    try writer.write(frame: try canvas.image.applying(rotation.inverse).pixelBytes(), pts: pts)
                }
            }
            try writer.finish()
            try target.commit()
        } catch {
            target.discard()
            throw error
        }
    }
}

extension ImageOrientation {
    /// The turn that undoes this one.
    var inverse: ImageOrientation {
        switch self {
        case .right: return .left
        case .left: return .right
        default: return self
        }
    }

    /// A rectangle of the stored pixels mapped onto the upright image (the inverse of `storedRect`).
    func uprightRect(for rect: ImageRect, storedSize: PixelSize) -> ImageRect {
        let W = Double(storedSize.width), H = Double(storedSize.height)
        switch self {
        case .right: return ImageRect(x: H - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
        case .left: return ImageRect(x: rect.y, y: W - rect.x - rect.width, width: rect.height, height: rect.width)
        case .down: return ImageRect(x: W - rect.x - rect.width, y: H - rect.y - rect.height, width: rect.width, height: rect.height)
        default: return rect
        }
    }
}
