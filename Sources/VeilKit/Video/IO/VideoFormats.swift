/// The video containers Veil knows, in one table: which extensions a folder
/// walk, the media folder and a batch take as video, the FFmpeg muxer an
/// output's extension implies (the temporary name hides it), the MIME type a
/// browser is sent, and whether Veil writes that container itself (an output
/// of one it does not write is mp4).
public enum VideoFormats {
    public struct Container: Sendable {
        public let extensions: [String]
        public let muxer: String?
        public let mimeType: String
        /// Veil writes covered video in it (H.264 with the input's other streams).
        public let written: Bool
    }

    public static let containers: [Container] = [
        Container(extensions: ["mp4", "m4v"], muxer: "mp4", mimeType: "video/mp4", written: true),
        Container(extensions: ["mov"], muxer: "mov", mimeType: "video/quicktime", written: true),
        Container(extensions: ["mkv"], muxer: "matroska", mimeType: "video/x-matroska", written: true),
        Container(extensions: ["webm"], muxer: "webm", mimeType: "video/webm", written: true),
        Container(extensions: ["avi"], muxer: "avi", mimeType: "video/x-msvideo", written: false),
        Container(extensions: ["ts", "mts"], muxer: "mpegts", mimeType: "video/mp2t", written: false),
    ]

    /// Every extension taken as video (lower case, no dot).
    public static let extensions: Set<String> = Set(containers.flatMap(\.extensions))

    /// The container of a file's extension (any case), nil when it is not a video's.
    public static func container(forExtension ext: String) -> Container? {
        let ext = ext.lowercased()
        return containers.first { $0.extensions.contains(ext) }
    }

    /// The FFmpeg muxer an output's extension implies.
    public static func muxer(forExtension ext: String) -> String? { container(forExtension: ext)?.muxer }
}
