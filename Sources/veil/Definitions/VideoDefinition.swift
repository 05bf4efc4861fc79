import VeilKit

extension VideoCommand {
    static let definition: CommandSpec = {
        let d = VideoAnonymizer().detection, e = EncoderSettings()
        return CommandSpec(
            path: ["video"], arguments: "INPUT...",
            summary: "cover every face in every frame of a file, stream or camera; audio kept",
            details: ["INPUT is a file (mp4, mkv, webm, mov, avi), a stream URL FFmpeg opens (rtsp, http, udp) or a device "
                      + "(--input-format v4l2 /dev/video0), written to -o; or many files (folders recursed) with --out-dir, "
                      + "one after another. A live source stops on SIGINT/SIGTERM and keeps what it recorded (exit 0); "
                      + "a file's run is abandoned (130/143). A file cut short or damaged keeps the frames that could be read (exit 3). "
                      + "With OUTPUT.veil.json beside OUTPUT, a run re-renders from it without detecting, and copies from OUTPUT the GOPs "
                      + "its edits leave unchanged (re-encoding every frame, and saying why, when OUTPUT is not the file the state records)."],
            options: [
                .output("OUTPUT", "the covered video (a file, or with --output-format a URL or device)", sample: "out.mp4"),
                .outDir,
                .style, .shape, .maskScale(default: VideoAnonymizer.Cover().face.profile.scale),
                .faceThreshold(default: "the model's privacy threshold, \(OptionSpec.number(Double(d.detector.confidenceThreshold)))"),
                .faceModel(default: d.detector.model),
                .facePrecision,
                .cover, .textMatch,
                .valued("--detect-every", "K", .detection, "run the detector on every k-th frame; the tracker carries faces between",
                        default: "\(d.schedule.every)", sample: "2"),
                .valued("--grace", "N", .detection, "keep a face covered N frames after the detector last saw it",
                        default: "\(d.grace)", sample: "10"),
                .valued("--detect-pixels", "N", .detection, "the whole frame's pass shrunk to N pixels (the large faces)",
                        default: "\(d.schedule.wholePixels)\(d.liveWholePixels.map { ", live \($0) above it while keeping up" } ?? "")", sample: "500000"),
                .valued("--tile-pixels", "N", .detection, "each full-resolution tile at most N pixels (the small faces; one a frame, in turn)",
                        default: "\(d.schedule.tilePixels)", sample: "400000"),
                .tileScale("tiles upsampled S times before detection", default: d.schedule.tiling.tileScale),
                .valued("--crf", "N", .encoding, "H.264 quality, 0 (lossless) ... 51", default: "\(e.crf)", sample: "23"),
                .valued("--preset", "P", .encoding, "the x264 preset", default: "veryfast; ultrafast with --realtime",
                        choices: ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"], sample: "veryfast"),
                .valued("--x264-params", "K=V:...", .encoding, "x264's own options; a keyframe every \(OptionSpec.number(e.keyframeSeconds)) s is added unless they set keyint",
                        default: "\(EncoderSettings.defaultX264Params(preset: "veryfast")); \(EncoderSettings.defaultX264Params(preset: "ultrafast")) with ultrafast",
                        sample: "rc-lookahead=5"),
                .valued("--codec", "NAME", .encoding, "an FFmpeg video encoder instead of libx264", sample: "libx264"),
                .flag("--no-audio", .encoding, "drop audio and the other streams (kept by default, copied where the container takes them)"),
                .valued("--input-format", "F", .source, "the FFmpeg demuxer to open INPUT with (v4l2 for a camera)", sample: "mp4"),
                .valued("--output-format", "F", .source, "the FFmpeg muxer to write with (a v4l2 loopback, rtsp, udp)", sample: "mp4"),
                .flag("--realtime", .source, "a live source: when frames queue up, skip detections (counted), never frames"),
                .threads,
                .valued("--json", "FRAMES.jsonl", .output, "every frame's boxes as JSON Lines, written as frames come (see README)",
                        kind: .file, sample: "frames.jsonl"),
                .valued("--preview", "OUT.preview.mp4", .output, "a review video: the input's frames, uncovered, with each track's box and id drawn "
                        + "(green covered, red dropped, blue added, violet text; keep it as private as the input)", kind: .file, sample: "out.preview.mp4"),
                .valued("--segment", "I/N", .batch, "only the I-th (0-based) of N time ranges, cut at any frame; join them with `veil video join`",
                        default: "the array task from the environment, as --shard", sample: "0/2"),
                .valued("--drop-track", "ID[,ID...]", .editing, "uncover a track for its whole life (re-renders from OUTPUT.veil.json; see `veil video tracks`)", sample: "1"),
                .valued("--keep-track", "ID[,ID...]", .editing, "cover a dropped track again", sample: "1"),
                .valued("--merge-tracks", "A,B[,...]", .editing, "join tracks that follow one person into the first (then one id drops or keeps them); repeatable",
                        sample: "1,2"),
                .valued("--keep-person", "P[,P...]", .editing, "show person P: uncover every track of P, in every shot (the people: `veil video tracks --people`)",
                        sample: "1"),
                .valued("--drop-person", "P[,P...]", .editing, "cover every track of person P again", sample: "1"),
                .valued("--person-of", "TRACK=P[,...]", .editing, "put a track in person P (a number no track has: a person of its own, split from the rest)",
                        sample: "1=2"),
                .valued("--merge-people", "A,B[,...]", .editing, "join people proposed as several into the first; repeatable", sample: "1,2"),
                .valued("--add", "\"F:x,y,w,h ...\"", .editing, "cover a box the detector missed: one key frame, followed before and after it; or several, interpolated between",
                        sample: "0:10,10,40,40"),
                .valued("--stroke", "\"F1-F2:x1,y1 x2,y2 ...@width\"", .editing, "paint with the pen on frames F1...F2 (pixels); repeatable",
                        sample: "0-10:10,10 30,30@5"),
                .flag("--confirm", .editing, "mark the tracks reviewed"),
            ] + BatchRun.options,
            subcommands: [VideoJoinCommand.definition, VideoTracksCommand.definition, VideoPlanCommand.definition])
            .runs { try await run($0) }
            .examples(.init("veil video in.mp4 -o out.mp4 --preview out.preview.mp4", "every face of every frame covered, audio kept; a review video with each track's box and id"),
                      .init("veil video in.mp4 -o out.mp4 --drop-track 3 --merge-tracks 4,9", "re-render from out.mp4.veil.json without detecting: track 3 uncovered, 4 and 9 one person"),
                      .init("veil video in.mp4 -o out.mp4 --keep-person 1", "re-render with person 1 (`veil video tracks --people out.mp4.veil.json`) uncovered in every shot"),
                      .init("veil video rtsp://camera/stream --realtime -o rec.mp4", "a live stream covered as it comes; SIGINT ends the recording and keeps it"))
    }()
}

extension VideoJoinCommand {
    static let definition = CommandSpec(
        path: ["video", "join"], arguments: "PART...",
        summary: "the --segment parts, in order, into one file (nothing re-encoded)",
        details: ["A part that overlaps the one before is refused. The output is written under a temporary name and renamed when finished."],
        options: [
            .valued("-o", "OUTPUT", .output, "the joined video", kind: .file, sample: "joined.mp4").with(required: true),
            .valued("--output-format", "F", .output, "the FFmpeg muxer to write with", sample: "mp4"),
        ])
        .runs { try run($0) }
        .examples(.init("veil video join parts/part-{0..15}.mp4 -o cam7-veil.mp4", "the 16 parts of `veil video --segment I/16`, joined without re-encoding"))
}
