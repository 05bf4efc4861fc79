import CVideoShim

/// Why a call into CVideoShim failed, in words. C records only which step
/// failed and FFmpeg's code (`VeilFailure`); every sentence a user reads
/// about a video's input or output is written here, in one table, so the
/// wording is Swift's to change and to test.
struct VideoShimFailure: CustomStringConvertible {
    var raw = VeilFailure()
    /// The part a join was opening, which the part's steps name.
    var part: String?

    init(part: String? = nil) { self.part = part }

    /// "what failed: FFmpeg's reason", or "what failed" when FFmpeg gave no code.
    var description: String { raw.code < 0 ? "\(what): \(Self.reason(raw.code))" : what }

    /// The step, as a user reads it.
    var what: String {
        switch Int(raw.step) {
        case VEIL_FAILED_NO_DECODER: "no decoder for the video codec"
        case VEIL_FAILED_NO_VIDEO_STREAM: "no video stream"
        case VEIL_FAILED_NO_FRAME_SIZE: "the video has no frame size"
        case VEIL_FAILED_FRAMES_OVER_LIMIT:
            "frames of \(raw.detail.0)x\(raw.detail.1) (\(raw.detail.0 * raw.detail.1) pixels) are over the limit of \(raw.detail.2) pixels"
        case VEIL_FAILED_OPEN_DECODER: "cannot open the video decoder"
        case VEIL_FAILED_UNKNOWN_INPUT_FORMAT: "unknown input format"
        case VEIL_FAILED_STOPPED_BEFORE_OPEN: "stopped before the input opened"
        case VEIL_FAILED_OPEN_INPUT: "cannot open the input"
        case VEIL_FAILED_STREAM_INFO: "cannot read stream information"
        case VEIL_FAILED_SEEK: "cannot seek in the input"
        case VEIL_FAILED_READ_INPUT: "cannot read the input"
        case VEIL_FAILED_READ_PART: "cannot read part \(part ?? "?")"
        case VEIL_FAILED_PART_STREAMS: "part \(part ?? "?") does not have the first part's streams"
        case VEIL_FAILED_READ_A_PART: "cannot read a part"
        case VEIL_FAILED_CHOOSE_OUTPUT_FORMAT: "cannot choose the output format"
        case VEIL_FAILED_MAKE_OUTPUT_STREAMS: "cannot make the output's streams"
        case VEIL_FAILED_CREATE_OUTPUT: "cannot create the output"
        case VEIL_FAILED_START_OUTPUT: "cannot start the output"
        case VEIL_FAILED_OPEN_OUTPUT: "cannot open the output"
        case VEIL_FAILED_UNKNOWN_OUTPUT_FORMAT: "unknown output format"
        case VEIL_FAILED_MUXER_OPTIONS: "bad muxer options"
        case VEIL_FAILED_WRITE_OUTPUT: "cannot write the output"
        case VEIL_FAILED_FINISH_OUTPUT: "cannot finish the output"
        case VEIL_FAILED_NO_ENCODER: "no such encoder or pixel format"
        case VEIL_FAILED_OPEN_ENCODER: "cannot open the video encoder"
        case VEIL_FAILED_PREPARE_FRAME: "cannot prepare a frame"
        case VEIL_FAILED_ENCODE: "cannot encode"
        case VEIL_FAILED_ENCODE_VIDEO: "cannot encode the video"
        case VEIL_FAILED_REENCODE_AUDIO: "cannot re-encode the audio"
        case VEIL_FAILED_FINISH_AUDIO: "cannot finish the audio"
        case VEIL_FAILED_COPIED_NOT_AVCC: "a copied video packet is not H.264 with 4-byte NAL lengths"
        case VEIL_FAILED_WRITE_COPIED: "cannot write a copied video packet"
        case VEIL_FAILED_RESTART_PARAMETERS: "a restarted encoder made other parameter sets than the output's"
        // A call that failed before it could say why (memory ran out).
        default: raw.code < 0 ? "FFmpeg failed" : "out of memory"
        }
    }

    /// FFmpeg's words for an error code ("error N" for a code it has none for).
    static func reason(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        guard veil_error_string(code, &text, text.count) >= 0 else { return "error \(code)" }
        return String(cMessage: text)
    }

    /// Runs a shim call that reports into a `VeilFailure`: its result, and
    /// the failure it recorded.
    static func calling<R>(part: String? = nil, _ body: (UnsafeMutablePointer<VeilFailure>) -> R) -> (R, VideoShimFailure) {
        var failure = VideoShimFailure(part: part)
        let result = body(&failure.raw)
        return (result, failure)
    }
}
