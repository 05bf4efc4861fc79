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
        let pixels = state.pixels
        var out: [Mark] = []
        for track in state.tracks {
            guard let s = track.sighting(at: frame) else { continue }
            out.append(Mark(label: "\(track.id)", box: pixels(s.box), color: ReviewColors.of(track.status, else: ReviewColors.covered)))
        }
        for region in state.manual {
            guard let b = region.box(at: frame) else { continue }
            out.append(Mark(label: "\(region.id)+", box: pixels(b), color: ReviewColors.of(region.status, else: ReviewColors.added)))
        }
        for track in state.texts ?? [] {
            guard let s = track.sighting(at: frame) else { continue }
            out.append(Mark(label: "t\(track.id)", box: pixels(s.box), color: ReviewColors.of(track.status, else: ReviewColors.text)))
        }
        return out
    }

    /// Writes the preview of `state` over `video` (the input it was made from) to `output`.
    public static func write(_ state: VideoEditingState, video: URL, to output: URL) throws {
        let reader = try VideoReader.review(video)
        let info = reader.info
        guard info.width == state.source.width, info.height == state.source.height else {
            throw VeilError.invalidArgument("\(video.lastPathComponent) is \(info.width)x\(info.height), its state's video \(state.source.width)x\(state.source.height): not the input the state was made from")
        }
        let rotation = ImageOrientation(clockwiseDegrees: info.rotation)
        let target = OutputTarget(output.path, explicitFormat: nil)
        target.sweepStale()
        // Faces uncovered: created 0600 before FFmpeg opens it (it keeps an existing file's mode).
        target.createOwnerOnly()
        let options = VideoWriter.Options(encoder: EncoderSettings(format: target.impliedFormat, crf: 28, preset: "veryfast", threads: 1))
        do {
            let writer = try VideoWriter(url: target.writePath, streams: reader.streams(), options: options)
            let stored = PixelSize(width: info.width, height: info.height)
            let upright = rotation == .right || rotation == .left ? PixelSize(width: info.height, height: info.width) : stored
            // Even and at least 4 px: a thinner line loses its colour to 4:2:0 chroma.
            let thickness = max(4, min(upright.width, upright.height) / 360 * 2)
            let textHeight = max(12, min(upright.width, upright.height) / 36)
            var labels: [String: LabelBitmap] = [:]
            try reader.forEachFrame(packet: { try writer.write($0) }) { index, pixels, pts in
                let marks = marks(state, at: index)
                guard !marks.isEmpty else { try writer.write(frame: pixels, pts: pts); return }
                // Drawn upright in the frame's own buffer, in one pass of Swift (a libvips
                // call a line and a label cost 0.39 s a frame over a crowd, in GObject's bookkeeping).
                if rotation != .up {
                    pixels = try VeilImage(pixels: pixels, width: info.width, height: info.height, bands: 3).applying(rotation).pixelBytes()
                }
                for mark in marks {
                    let r = rotation.uprightRect(for: mark.box, storedSize: stored).integral
                    Self.outline(r, thickness: thickness, color: mark.color, in: &pixels, size: upright)
                    let label = try labels[mark.label] ?? LabelBitmap(mark.label, height: textHeight)
                    labels[mark.label] = label
                    let y = r.y - thickness - label.height - 1 >= 0 ? r.y - thickness - label.height - 1 : r.y + r.height + thickness + 1
                    label.draw(at: min(max(0, r.x - thickness), max(0, upright.width - label.width)), y, color: mark.color, in: &pixels, size: upright)
                }
                if rotation != .up {
                    pixels = try VeilImage(pixels: pixels, width: upright.width, height: upright.height, bands: 3).applying(rotation.inverse).pixelBytes()
                }
                try writer.write(frame: pixels, pts: pts)
            }
            try writer.finish()
            try target.commit()
        } catch {
            target.discard()
            throw error
        }
    }
}

extension VideoPreview {
    /// `rect`'s outline, `thickness` pixels wide and drawn outside it, clipped to the frame.
    static func outline(_ rect: PixelRect, thickness t: Int, color: RGB, in pixels: inout [UInt8], size: PixelSize) {
        let (x0, y0, x1, y1) = (rect.x - t, rect.y - t, rect.x + rect.width + t, rect.y + rect.height + t)
        fill(x0, y0, x1, rect.y, color, &pixels, size)                       // top
        fill(x0, rect.y + rect.height, x1, y1, color, &pixels, size)        // bottom
        fill(x0, rect.y, rect.x, rect.y + rect.height, color, &pixels, size) // left
        fill(rect.x + rect.width, rect.y, x1, rect.y + rect.height, color, &pixels, size)
    }

    /// Pixels x0..<x1, y0..<y1 (clipped) set to `color`.
    static func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ color: RGB, _ pixels: inout [UInt8], _ size: PixelSize) {
        let (a, b, c, d) = (max(0, x0), max(0, y0), min(size.width, x1), min(size.height, y1))
        guard a < c, b < d else { return }
        pixels.withUnsafeMutableBufferPointer { p in
            for y in b..<d {
                var i = (y * size.width + a) * 3
                for _ in a..<c { p[i] = color.r; p[i + 1] = color.g; p[i + 2] = color.b; i += 3 }
            }
        }
    }
}

/// A label's text as a coverage mask, rendered once by libvips, then drawn
/// into frames by `draw` on a black band (so it reads over any picture).
struct LabelBitmap {
    let width: Int, height: Int
    private let alpha: [UInt8], maskWidth: Int, maskHeight: Int

    init(_ text: String, height: Int) throws {
        let rendered = try Canvas.Text(text, height: height)
        let mask = VeilImage(rendered.mask)
        alpha = try mask.pixelBytes()
        (maskWidth, maskHeight) = (mask.width, mask.height)
        (width, self.height) = (rendered.width, rendered.height)
    }

    func draw(at x: Int, _ y: Int, color: RGB, in pixels: inout [UInt8], size: PixelSize) {
        VideoPreview.fill(x, y, x + width, y + height, RGB(0, 0, 0), &pixels, size)
        pixels.withUnsafeMutableBufferPointer { p in
            for my in 0..<maskHeight {
                let py = y + 1 + my
                guard py >= 0, py < size.height else { continue }
                for mx in 0..<maskWidth {
                    let px = x + 2 + mx, a = Int(alpha[my * maskWidth + mx])
                    guard a > 0, px >= 0, px < size.width else { continue }
                    let i = (py * size.width + px) * 3
                    p[i] = UInt8((Int(color.r) * a + Int(p[i]) * (255 - a)) / 255)
                    p[i + 1] = UInt8((Int(color.g) * a + Int(p[i + 1]) * (255 - a)) / 255)
                    p[i + 2] = UInt8((Int(color.b) * a + Int(p[i + 2]) * (255 - a)) / 255)
                }
            }
        }
    }
}
