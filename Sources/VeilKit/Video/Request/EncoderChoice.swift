import CVideoShim

/// Which encoder and pixel format a covered video is written with, chosen
/// here from what this FFmpeg has (the shim only answers what it has): the
/// encoder asked for, else libx264, else FFmpeg's H.264 encoder, else its
/// MPEG-4; 4:2:0 where the size allows (what every player takes), 4:4:4 for
/// odd sizes (4:2:0 cannot carry them), else the encoder's first format.
struct EncoderChoice: Sendable, Equatable {
    let encoder: String
    let pixelFormat: String

    init(encoder: String, pixelFormat: String) { self.encoder = encoder; self.pixelFormat = pixelFormat }

    init(asked: String?, width: Int, height: Int) throws {
        encoder = try Self.encoder(asked: asked)
        pixelFormat = Self.pixelFormat(encoder: encoder, width: width, height: height)
    }

    init(asked: String?, streams: VideoStreams) throws {
        var (width, height): (Int32, Int32) = (0, 0)
        veil_streams_video_size(streams.pointer, &width, &height)
        try self.init(asked: asked, width: Int(width), height: Int(height))
    }

    static func encoder(asked: String?) throws -> String {
        if let asked, !asked.isEmpty {
            guard veil_video_encoder_exists(asked) != 0 else { throw VeilError.invalidArgument("unknown video codec '\(asked)' (see `ffmpeg -encoders`)") }
            return asked
        }
        if veil_video_encoder_exists("libx264") != 0 { return "libx264" }
        for codec in ["h264", "mpeg4"] { if let name = veil_video_encoder_for(codec) { return String(cString: name) } }
        throw VeilError.unavailable("no video encoder available (Debian's ffmpeg libraries with libx264 have one)")
    }

    static func pixelFormat(encoder: String, width: Int, height: Int) -> String {
        let odd = (width | height) & 1 != 0
        let listed = formats(of: encoder)
        // An encoder that lists none takes 4:2:0.
        func takes(_ format: String) -> Bool { listed.isEmpty ? format == "yuv420p" : listed.contains(format) }
        if !odd && takes("yuv420p") { return "yuv420p" }
        if takes("yuv444p") { return "yuv444p" }
        if takes("yuv420p") { return "yuv420p" }
        return listed.first ?? "yuv420p"
    }

    /// The pixel formats an encoder lists, in its order.
    static func formats(of encoder: String) -> [String] {
        var names = [UnsafePointer<CChar>?](repeating: nil, count: 256)
        let count = Int(veil_video_encoder_formats(encoder, &names, Int32(names.count)))
        return names.prefix(count).map { String(cString: $0!) }
    }
}
