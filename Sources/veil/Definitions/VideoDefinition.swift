import VeilKit
import VeilVocabulary

extension VideoCommand {
    static let definition: CommandSpec = {
        let d = VideoAnonymizer().detection
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
                VideoRunOptions.spec(\.output).alternative("output"), VideoRunOptions.spec(\.outDir).alternative("output"),
                .style, .shape, .maskScale(default: VideoAnonymizer.Cover().face.profile.scale),
                .faceThreshold(default: "the model's privacy threshold, \(OptionSpec.number(Double(d.detector.confidenceThreshold)))"),
                .faceModel(default: d.detector.model),
                .facePrecision,
                .cover, .textMatch,
            ] + DetectionOptions.specs + EncodingOptions.specs + SourceOptions.specs + [
                .threads,
                VideoRunOptions.spec(\.json), VideoRunOptions.spec(\.preview), VideoRunOptions.spec(\.segment),
            ] + VideoEditOptions.specs + BatchRun.options,
            subcommands: [VideoJoinCommand.definition, VideoTracksCommand.definition, VideoPlanCommand.definition])
            .runs { try await run($0) }
            .examples(.init("veil video in.mp4 -o out.mp4 --preview out.preview.mp4", "every face of every frame covered, audio kept; a review video with each track's box and id"),
                      .init("veil video in.mp4 -o out.mp4 --drop-track 3 --merge-tracks 4,9", "re-render from out.mp4.veil.json without detecting: track 3 uncovered, 4 and 9 one person"),
                      .init("veil video in.mp4 -o out.mp4 --uncover-person 1", "re-render with person 1 (`veil video tracks --people out.mp4.veil.json`) uncovered in every shot"),
                      .init("veil video rtsp://camera/stream --realtime -o rec.mp4", "a live stream covered as it comes; SIGINT ends the recording and keeps it"))
    }()
}

extension VideoJoinCommand {
    static let definition = CommandSpec(
        path: ["video", "join"], arguments: "PART...",
        summary: "the --segment parts, in order, into one file (nothing re-encoded)",
        details: ["A part that overlaps the one before is refused. The output is written under a temporary name and renamed when finished."],
        options: [Options.spec(\.output).with(required: true), Options.spec(\.format)])
        .runs { try run($0) }
        .examples(.init("veil video join parts/part-{0..15}.mp4 -o cam7-veil.mp4", "the 16 parts of `veil video --segment I/16`, joined without re-encoding"))
}
