import Foundation

/// The frames of a video file in order, each with its index: the one loop the
/// review pictures read a video with (the track sheet's thumbnails, the
/// preview video), where the run itself reads through `VideoAnonymizer`'s pipeline.
extension VideoReader {
    /// A reader of `video`, open, at the frame size a run accepts.
    static func review(_ video: URL) throws -> VideoReader {
        let reader = VideoReader()
        try reader.open(video.path, format: nil, maxPixels: VideoAnonymizer.Source().maxFramePixels)
        return reader
    }

    /// Reads to the end, or until frame `last` has been handed over: each
    /// packet of the other streams to `packet`, each frame to `frame` with its
    /// index (from 0), its pixels (interleaved RGB, stored orientation) and pts.
    func forEachFrame(through last: Int = .max, packet: (Packet) throws -> Void = { _ in },
                      _ frame: (_ index: Int, _ pixels: inout [UInt8], _ pts: Int64) throws -> Void) throws {
        var index = 0
        while index <= last {
            switch try next() {
            case let .packet(p): try packet(p)
            case .end: return
            case .frame(var pixels, let pts, _):
                defer { index += 1 }
                try frame(index, &pixels, pts)
            }
        }
    }
}
