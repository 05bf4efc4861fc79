import Foundation
import Synchronization
@testable import VeilKit
import XCTest

/// Clips built here from the sample photo (no camera, no shared data needed).
final class VideoAnonymizerTests: XCTestCase {
    let width = 640, height = 360, fps = 30, frames = 60

    /// Frame `i`: the sample photo at a scale from 0.55 to 0.7, panned from
    /// left to right on a grey background. Returns where the face is.
    private func frame(_ i: Int, photo: VeilImage) throws -> (VeilImage, ImageRect) {
        let t = Double(i) / Double(frames - 1)
        let side = Int(512 * (0.55 + 0.15 * t))
        let x = Int(20 + t * Double(width - side - 40)), y = (height - side) / 2
        let background = try VeilImage.constant(RGB(120, 120, 120), size: PixelSize(width: width, height: height))
        let placed = try background.inserting(photo.resized(width: side, height: side), x: x, y: y)
        let s = Double(side) / 512, f = TestData.astronautFace
        return (placed, ImageRect(x: Double(x) + f.x * s, y: Double(y) + f.y * s, width: f.width * s, height: f.height * s))
    }

    private func makeClip(_ url: URL, audio: TestClip.Audio, rotation: Int = 0, count: Int? = nil) throws -> [ImageRect] {
        let photo = try ImageDecoder().decode(.url(TestData.astronaut())).image
        let turnsBack = ImageOrientation(clockwiseDegrees: (360 - rotation) % 360)
        let first = try frame(0, photo: photo).0.applying(turnsBack)
        let clip = try TestClip(path: url.path, width: first.width, height: first.height, fps: fps, audio: audio, rotation: rotation)
        var faces: [ImageRect] = []
        for i in 0..<(count ?? frames) {
            let (image, face) = try frame(i, photo: photo)
            try clip.add(image.applying(turnsBack))
            faces.append(face)
        }
        try clip.close()
        return faces
    }

    /// Reads every frame of a video, upright.
    private func readFrames(_ url: URL) throws -> (VideoInfo, [VeilImage]) {
        let reader = try VideoReader(url: url.path)
        var images: [VeilImage] = []
        while true {
            switch try reader.next() {
            case let .frame(pixels, _, _):
                images.append(try VeilImage(pixels: pixels, width: reader.info.width, height: reader.info.height, bands: 3)
                    .applying(ImageOrientation(clockwiseDegrees: reader.info.rotation)))
            case .packet: break
            case .end: return (reader.info, images)
            }
        }
    }

    private func meanDifference(_ a: VeilImage, _ b: VeilImage, in rect: ImageRect) throws -> Double {
        let inner = ImageRect(x: rect.midX - rect.width * 0.3, y: rect.midY - rect.height * 0.3, width: rect.width * 0.6, height: rect.height * 0.6).integral
        return try TestImages.meanAbsoluteDifference(a.cropped(to: inner), b.cropped(to: inner))
    }

    /// Live (ultrafast) the encoder holds no frames back; a file keeps the
    /// default lookahead, and parameters a user gives are theirs.
    func testLiveEncodingHasNoLookaheadAndFilesKeepTheirs() {
        let info = VideoInfo(width: 1920, height: 1080, rate: (25, 1), timeBase: (1, 25), frameCount: 0, duration: 0,
                             rotation: 0, hasAudio: false, audioDuration: 0)
        var request = VideoAnonymizer()
        XCTAssertEqual(request.encoder(for: info, format: "mp4").x264Params, "rc-lookahead=5:sync-lookahead=0:aq-mode=0:keyint=50")
        XCTAssertEqual(request.encoder(for: info, format: "mp4").threads, 1, "one encoder thread beside the detector")
        request.source.realtime = true
        let live = request.encoder(for: info, format: "mp4")
        XCTAssertEqual(live.preset, "ultrafast")
        XCTAssertEqual(live.x264Params, "rc-lookahead=0:sync-lookahead=0:keyint=50")
        request.encoding.preset = "veryfast"
        XCTAssertEqual(request.encoder(for: info, format: "mp4").x264Params, "rc-lookahead=5:sync-lookahead=0:aq-mode=0:keyint=50")
        request.encoding.preset = nil
        request.encoding.x264Params = "rc-lookahead=3"
        XCTAssertEqual(request.encoder(for: info, format: "mp4").x264Params, "rc-lookahead=3:keyint=50")
        // Given explicitly, the file default is the user's live too (it used to be compared with the default string and dropped).
        request.source.realtime = true
        request.encoding.x264Params = "rc-lookahead=5:sync-lookahead=0"
        XCTAssertEqual(request.encoder(for: info, format: "mp4").x264Params, "rc-lookahead=5:sync-lookahead=0:keyint=50")
        request.encoding.x264Params = ""
        XCTAssertEqual(request.encoder(for: info, format: "mp4").x264Params, "keyint=50", "empty: x264's own")
    }

    func testEveryFrameCoveredWithTimingAndAudioKept() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let faces = try makeClip(input, audio: .aac)
        let report = try await VideoAnonymizer().run(input: input.path, output: output.path)
        XCTAssertEqual(report.frames, frames)
        XCTAssertEqual(report.copiedStreams, 1)
        let (inInfo, originals) = try readFrames(input)
        let (outInfo, covered) = try readFrames(output)
        XCTAssertEqual(covered.count, frames)
        XCTAssertEqual(outInfo.width, width)
        XCTAssertEqual(outInfo.height, height)
        XCTAssertEqual(outInfo.framesPerSecond, Double(fps), accuracy: 0.01)
        XCTAssertEqual(outInfo.duration, inInfo.duration, accuracy: 1.5 / Double(fps))
        XCTAssertTrue(outInfo.hasAudio)
        XCTAssertGreaterThan(inInfo.audioDuration, 1.5)
        XCTAssertEqual(outInfo.audioDuration, inInfo.audioDuration, accuracy: 0.05)
        for i in 0..<frames {
            XCTAssertGreaterThan(try meanDifference(originals[i], covered[i], in: faces[i]), 12, "frame \(i): the face is visible")
        }
        // Away from the face the frame is the same picture (up to re-encoding).
        XCTAssertLessThan(try TestImages.meanAbsoluteDifference(originals[30].cropped(to: PixelRect(x: 0, y: 300, width: 640, height: 60)),
                                                                 covered[30].cropped(to: PixelRect(x: 0, y: 300, width: 640, height: 60))), 4)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".part") })
    }

    /// What no cover touches comes back as the decoder made it, bit for bit:
    /// the writer encodes the decoder's own 4:2:0 pictures and converts from
    /// RGB only the rectangles the covers reach. Encoded losslessly (CRF 0),
    /// the sample photos with no cover read back byte for byte as they went
    /// in (through RGB and back they differed by about a level: FFmpeg's fast
    /// YUV to RGB rounds luma 0.7 of a level dark).
    func testColoursNoCoverTouchesComeBackUnchanged() async throws {
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("colours.mp4"), output = dir.appendingPathComponent("colours-out.mp4")
        let photos = try [TestData.astronaut(), TestData.sample(.chelsea), TestData.sample(.coffee)].map {
            try ImageDecoder().decode(.url($0)).image.resized(width: 320, height: 240)
        }
        let clip = try TestClip(path: input.path, width: 320, height: 240, fps: 25, audio: .none)
        for i in 0..<6 { try clip.add(photos[i % photos.count]) }
        try clip.close()
        var anonymizer = VideoAnonymizer()
        anonymizer.cover.faces = false
        anonymizer.encoding.crf = 0
        _ = try await anonymizer.run(input: input.path, output: output.path)
        let (_, originals) = try readFrames(input)
        let (_, passed) = try readFrames(output)
        XCTAssertEqual(passed.count, originals.count)
        for (i, (a, b)) in zip(originals, passed).enumerated() {
            let x = try a.pixelBytes(), y = try b.pixelBytes()
            XCTAssertEqual(x.count, y.count)
            XCTAssertEqual(zip(x, y).filter { $0 != $1 }.count, 0, "frame \(i): bytes changed with no cover")
        }
    }

    /// With a face covered, the face changes and nothing away from it does:
    /// outside the rectangles the covers reach (`CoverRenderer.reach`, grown
    /// by the 2x2 blocks of 4:2:0), every byte of every losslessly encoded
    /// frame is the input's.
    func testOnlyTheCoversReachChanges() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("pan.mp4"), output = dir.appendingPathComponent("pan-out.mp4")
        let faces = try makeClip(input, audio: .none, count: 20)
        var anonymizer = VideoAnonymizer()
        anonymizer.encoding.crf = 0
        let records = Mutex<[Int: [TrackedBox]]>([:])
        _ = try await anonymizer.run(input: input.path, output: output.path, record: { r in records.withLock { $0[r.index] = r.faces } })
        let (_, originals) = try readFrames(input)
        let (_, passed) = try readFrames(output)
        XCTAssertEqual(passed.count, 20)
        let renderer = try anonymizer.cover.face.renderer()
        for (i, (a, b)) in zip(originals, passed).enumerated() {
            let x = try a.pixelBytes(), y = try b.pixelBytes()
            let boxes = records.withLock { $0[i] ?? [] }
            XCTAssertFalse(boxes.isEmpty, "frame \(i) has its face covered")
            var near = [Bool](repeating: false, count: width * height)
            for r in renderer.reach(regions: boxes.map { CoverRegion(rect: $0.box, shape: anonymizer.cover.shape) }, width: width, height: height) {
                for yy in max(0, r.y - 2)..<min(height, r.y + r.height + 2) {
                    for xx in max(0, r.x - 2)..<min(width, r.x + r.width + 2) { near[yy * width + xx] = true }
                }
            }
            var away = 0
            for p in 0..<width * height where !near[p] && (x[3 * p] != y[3 * p] || x[3 * p + 1] != y[3 * p + 1] || x[3 * p + 2] != y[3 * p + 2]) { away += 1 }
            XCTAssertEqual(away, 0, "frame \(i): pixels changed away from the covers")
            XCTAssertGreaterThan(try meanDifference(a, b, in: faces[i]), 5, "frame \(i): the face is covered")
            XCTAssertLessThan(near.filter { $0 }.count, width * height / 3, "frame \(i): the covers reach a part of the frame")
        }
    }

    func testClipWithoutAudioAndWithRotation() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("rot.mov"), output = dir.appendingPathComponent("rot-out.mp4")
        let faces = try makeClip(input, audio: .none, rotation: 90, count: 20)
        let report = try await VideoAnonymizer().run(input: input.path, output: output.path)
        XCTAssertEqual(report.frames, 20)
        XCTAssertEqual(report.copiedStreams, 0)
        let (inInfo, originals) = try readFrames(input)
        let (outInfo, covered) = try readFrames(output)
        XCTAssertEqual(inInfo.rotation, 90)
        XCTAssertEqual(outInfo.rotation, 90, "rotation metadata kept")
        XCTAssertFalse(outInfo.hasAudio)
        XCTAssertEqual(covered.first?.width, width)  // upright after applying the rotation
        for i in 0..<20 {
            XCTAssertGreaterThan(try meanDifference(originals[i], covered[i], in: faces[i]), 12, "frame \(i)")
        }
    }

    /// PCM audio cannot go into mp4 as it is: it is re-encoded (AAC), not lost.
    func testAudioTheContainerCannotTakeIsReencoded() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("pcm.mov"), output = dir.appendingPathComponent("pcm-out.mp4")
        _ = try makeClip(input, audio: .pcm, count: 30)
        let report = try await VideoAnonymizer().run(input: input.path, output: output.path)
        XCTAssertEqual(report.copiedStreams, 1)
        XCTAssertEqual(report.reencodedStreams, 1)
        let inInfo = try VideoReader(url: input.path).info, outInfo = try VideoReader(url: output.path).info
        XCTAssertTrue(outInfo.hasAudio)
        XCTAssertGreaterThan(inInfo.audioDuration, 0.9)
        XCTAssertEqual(outInfo.audioDuration, inInfo.audioDuration, accuracy: 0.06)
    }

    func testBrokenInputsGiveClearErrorsAndNoOutput() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let good = dir.appendingPathComponent("good.mp4")
        _ = try makeClip(good, audio: .aac, count: 30)
        let bytes = try Data(contentsOf: good)
        let truncated = dir.appendingPathComponent("truncated.mp4")
        try bytes.prefix(bytes.count / 3).write(to: truncated)
        let text = dir.appendingPathComponent("text.mp4")
        try Data("not a video at all".utf8).write(to: text)
        let empty = dir.appendingPathComponent("empty.mp4")
        _ = try makeClip(empty, audio: .none, count: 0)
        let noise = dir.appendingPathComponent("noise.mkv")
        try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }).write(to: noise)
        for input in [truncated, text, empty, noise, dir.appendingPathComponent("missing.mp4")] {
            let output = dir.appendingPathComponent("out-\(input.lastPathComponent)")
            do {
                _ = try await VideoAnonymizer().run(input: input.path, output: output.path)
                XCTFail("\(input.lastPathComponent) was accepted")
            } catch let error as VeilError {
                XCTAssertFalse(error.description.isEmpty)
                XCTAssertFalse(error.description.contains("\n"))
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(input.lastPathComponent) left an output")
        }
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".part") }, "partial output left")
    }

    /// A run opens its input once: a first run in its reader thread; a
    /// re-render in its plan (to splice from the input's streams), the reader
    /// thread reading on from that open input, each range of GOPs it
    /// re-encodes a seek of it, not another open.
    func testARunAndAReRenderOpenTheirInputOnce() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("out.mp4")
        let statePath = PhotoBlurrer.sidecar(for: output)
        _ = try makeClip(input, audio: .none)
        // Tests run one at a time: every open between two readings is this run's.
        let opens = { VideoReader.opens.load(ordering: .relaxed) }
        var copied: [Int] = []
        for pass in 0..<3 {
            var encoding = EncoderSettings()
            encoding.keyframeSeconds = 0.4
            // A region added over frames 12 to 20: those GOPs re-encoded, the others copied.
            let edits = pass == 2 ? VideoEdits(add: [.init(keys: [(frame: 12, box: ImageRect(x: 0.4, y: 0.4, width: 0.2, height: 0.2)), (frame: 20, box: ImageRect(x: 0.5, y: 0.4, width: 0.2, height: 0.2))])]) : VideoEdits()
            let review = try VideoReview.open(input: input, output: output, statePath: statePath, edits: edits, cover: VideoAnonymizer.Cover())
            let anonymizer = VideoAnonymizer(encoding: encoding, review: review.replay())
            let before = opens(), recorder = review.recorder
            let report = try await anonymizer.run(input: input.path, output: output.path, record: { recorder.record($0) })
            try review.finish(report, input: input, output: output)
            XCTAssertEqual(opens() - before, 1, "pass \(pass) opened its input \(opens() - before) times")
            copied.append(report.copiedGOPs)
            if pass == 2 { XCTAssertGreaterThan(report.renderedGOPs, 0, "the added region's GOPs are re-encoded") }
        }
        XCTAssertEqual(copied[0], 0)
        XCTAssertGreaterThan(copied[1], 0, "the second pass copies the GOPs no edit changed")
        XCTAssertGreaterThan(copied[2], 0)
    }

    /// Frames over the limit are refused from the header, before any frame is decoded.
    func testFramesOverTheSizeLimitAreRefusedFromTheHeader() async throws {
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("big.mp4"), output = dir.appendingPathComponent("big-out.mp4")
        try FFmpegTool.run("ffmpeg", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "0.2", "-c:v", "libx264", input.path])
        var anonymizer = VideoAnonymizer()
        anonymizer.source.maxFramePixels = 320 * 240 - 1
        do {
            _ = try await anonymizer.run(input: input.path, output: output.path)
            XCTFail("accepted")
        } catch let error as VeilError {
            XCTAssertTrue(error.description.contains("320x240") && error.description.contains("over the limit"), error.description)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        anonymizer.source.maxFramePixels = 320 * 240
        try TestData.requireFaceModel()
        let report = try await anonymizer.run(input: input.path, output: output.path)
        XCTAssertEqual(report.frames, 5)
    }

    /// A stop request ends the reading; what was read is covered and kept.
    func testStopRequestKeepsWhatWasRead() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("stopped.mp4")
        _ = try makeClip(input, audio: .aac)
        let stop = RecordingStop()
        let report = try await VideoAnonymizer().run(input: input.path, output: output.path, stop: stop) { progress in
            if progress.frames == 10 { stop.request() }
        }
        XCTAssertEqual(report.ending, .stopped)
        XCTAssertGreaterThanOrEqual(report.frames, 10)
        XCTAssertLessThan(report.frames, frames)
        XCTAssertEqual(try FFmpegTool.frameCount(output.path), report.frames)
        XCTAssertEqual(try FFmpegTool.decodeErrors(output.path), "")
    }

    /// Cancelling the task abandons the work: nothing under the output's name, no temporary left.
    func testCancellationLeavesNothing() async throws {
        try TestData.requireFaceModel()
        let dir = try TestData.scratch(self)
        let input = dir.appendingPathComponent("in.mp4"), output = dir.appendingPathComponent("cancelled.mp4")
        _ = try makeClip(input, audio: .aac)
        let started = RecordingStop()
        let task = Task { try await VideoAnonymizer().run(input: input.path, output: output.path) { progress in if progress.frames == 5 { started.request() } } }
        while !started.isRequested { try await Task.sleep(nanoseconds: 10_000_000) }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("finished despite the cancellation")
        } catch is CancellationError {}
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".part") })
    }
}
