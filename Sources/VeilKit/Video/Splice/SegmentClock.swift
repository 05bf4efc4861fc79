/// The clock a segment's part is written in, so that its streams start at
/// exactly the input's times and the join's audio is the single run's,
/// sample for sample. An mp4 track that does not start at 0 is placed by an
/// edit list counted in the movie's clock, 1/1000 s unless told otherwise: a
/// part whose audio began at sample 47104 at 48 kHz (0.981333 s) was placed
/// at 0.981 s, 16 samples early, the part before it had its last packet cut
/// by 16 samples to meet it, and the join copied both (a 16-sample gap in its
/// timestamps where the next part began). A movie clock that every track's
/// clock divides places each track exactly.
enum SegmentClock {
    /// The video track's clock as FFmpeg's mp4 muxer makes it from the
    /// stream's time base (its denominator, doubled until at least 10,000),
    /// given to the muxer explicitly so this does not hang on that rule.
    static func videoTimescale(timeBaseDenominator den: Int) -> Int {
        var scale = max(1, den)
        while scale < 10_000 { scale *= 2 }
        return scale
    }

    /// The least common multiple of the video track's clock and the audio's
    /// sample rate (an audio track's clock), or nil (the muxer's default)
    /// when it would not fit the muxer's 31 bits.
    static func movieTimescale(video: Int, audioSampleRate rate: Int) -> Int? {
        guard rate > 0 else { return video }
        let multiple = video / gcd(video, rate) * rate
        return multiple <= Int(Int32.max) ? multiple : nil
    }

    /// The muxer options of a part of `info`'s video (only mp4 and mov take
    /// them; other muxers ignore them).
    static func muxerOptions(for info: VideoInfo) -> String? {
        let video = videoTimescale(timeBaseDenominator: info.timeBase.den)
        guard let movie = movieTimescale(video: video, audioSampleRate: info.hasAudio ? info.audioSampleRate : 0) else { return nil }
        return "video_track_timescale=\(video):movie_timescale=\(movie)"
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
