import Foundation
import VeilKit

/// Clips whose frames are not shown at index ÷ fps, made with the ffmpeg
/// CLI: a video that starts 0.85 s after its audio (the talk of issue 51), a
/// stream-copied cut whose edit list hides the frames before it, and a
/// variable frame rate. Every frame looks unlike every other (testsrc2's
/// motion, a patch of a colour of its own moving along the bottom band), so
/// a wrong frame shows in its pixels; the sample photo's astronaut stands on
/// the left until frame `cut` of the base clip and on the right from it, so
/// a frame of the wrong shot puts the face where no box is.
public enum ClockClips {
    public enum Kind: String, CaseIterable, Sendable { case offset, editList = "edit-list", variable }

    public static let (width, height, frames) = (640, 360, 75)
    /// The base clip's first frame of the second shot.
    public static let cut = 38
    /// The seconds of the base clip the edit-list clip leaves out (its first 13 frames).
    public static let editListCut = 0.5
    /// The photo's side in the clip, and where its corner is in each shot.
    static let (photoSide, photoY, photoX) = (260, 30, (before: 40, after: 360))

    /// The astronaut's face in a frame of the first shot (`after` false) or the second, in pixels.
    public static func face(after: Bool) -> ImageRect {
        let f = TestData.astronautFace, k = Double(photoSide) / 512
        return ImageRect(x: Double(after ? photoX.after : photoX.before) + f.x * k, y: Double(photoY) + f.y * k,
                         width: f.width * k, height: f.height * k)
    }

    /// The clip `kind`, written as `dir/KIND.mp4` with 4 s of a 440 Hz tone from t = 0.
    public static func make(_ kind: Kind, in dir: URL) throws -> URL {
        let base = dir.appendingPathComponent("clock-base.mp4"), url = dir.appendingPathComponent(kind.rawValue + ".mp4")
        if !FileManager.default.fileExists(atPath: base.path) { try makeBase(base) }
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4"]
        switch kind {
        case .offset:
            try FFmpegTool.run("ffmpeg", ["-itsoffset", "0.85", "-i", base.path] + tone
                                + ["-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", url.path])
        case .editList:
            // Cut between keyframes by copying: the frames from the keyframe to the cut are in the file, hidden by its edit list.
            let whole = dir.appendingPathComponent("clock-with-tone.mp4")
            try FFmpegTool.run("ffmpeg", ["-i", base.path] + tone + ["-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-shortest", whole.path])
            try FFmpegTool.run("ffmpeg", ["-ss", "\(editListCut)", "-i", whole.path, "-c", "copy", url.path])
        case .variable:
            // 25 fps for 20 frames, then 12.5 fps to frame 45, then 8.3 fps.
            let pts = "setpts='(N*0.04+if(gte(N,20),(N-20)*0.04,0)+if(gte(N,45),(N-45)*0.04,0))/TB'"
            try FFmpegTool.run("ffmpeg", ["-i", base.path] + tone + ["-map", "0:v", "-map", "1:a", "-vf", pts, "-fps_mode", "passthrough",
                                                                      "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", url.path])
        }
        return url
    }

    /// 3 s at 25 fps with B-frames (as a camera's or an editor's H.264 has them).
    private static func makeBase(_ url: URL) throws {
        let patch = "color=black:size=200x60:rate=25,format=rgb24,geq=r='mod(N*71\\,256)':g='mod(N*113\\,256)':b='mod(N*29\\,256)'"
        let graph = "[1]scale=\(photoSide):\(photoSide),format=yuv420p[photo];"
            + "[0][photo]overlay=x='if(lt(n,\(cut)),\(photoX.before),\(photoX.after))':y=\(photoY):eval=frame:shortest=1,"
            + "drawbox=x=0:y=300:w=\(width):h=60:c=black:t=fill[shot];[shot][2]overlay=x='mod(n*40,440)':y=300:eval=frame:shortest=1"
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=25:duration=3", "-loop", "1", "-i", try TestData.astronaut().path,
                                      "-f", "lavfi", "-i", patch, "-filter_complex", graph, "-t", "3",
                                      "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-pix_fmt", "yuv420p", url.path])
    }

    /// Each frame's presentation time as the ffmpeg CLI's ffprobe reads it (seconds).
    public static func frameTimes(_ url: URL) throws -> [Double] {
        try FFmpegTool.run("ffprobe", ["-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", url.path])
            .split(whereSeparator: \.isNewline).compactMap { Double($0.split(separator: ",").first ?? "") }
    }
}
