import Foundation
@testable import VeilKit
import XCTest

/// Every state Veil writes, Veil reads (issue 27): whatever boxes a run
/// covered — off the frame, at each edge, a pixel wide, larger than the
/// frame — the state recorded from them saves and loads back.
final class VideoStateRoundTripTests: XCTestCase {
    static let frame = PixelSize(width: 960, height: 540)

    static func state(_ tracks: [VideoEditingState.Track], frames: Int) -> VideoEditingState {
        VideoEditingState(source: .init(file: "in.mp4", sha256: String(repeating: "0", count: 64), size: 1, width: frame.width,
                                        height: frame.height, framesPerSecond: 25, frames: frames),
                          style: .pixelate(strength: 1), shape: .disc, maskScale: 1.1, tracks: tracks)
    }

    /// A box of the kinds a tracker can leave: anywhere from far off the
    /// frame to inside it, from a pixel to three frames wide.
    static func randomBox(_ rng: inout SystemRandomNumberGenerator) -> ImageRect {
        let (w, h) = (Double(frame.width), Double(frame.height))
        let sides = [0.5, 1, 8, 30, 120, w, 3 * w]
        let bw = sides.randomElement(using: &rng)! * Double.random(in: 0.5...1.5, using: &rng)
        let bh = sides.randomElement(using: &rng)! * Double.random(in: 0.5...1.5, using: &rng)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return ImageRect(x: -bw - Double.random(in: 0...w, using: &rng), y: Double.random(in: 0...h, using: &rng), width: bw, height: bh)
        case 1: return ImageRect(x: w - bw / 2, y: Double.random(in: -h...h, using: &rng), width: bw, height: bh)
        case 2: return ImageRect(x: Double.random(in: 0...w, using: &rng), y: -bh / 2, width: bw, height: bh)
        case 3: return ImageRect(x: Double.random(in: 0...w, using: &rng), y: h + Double.random(in: 0...3 * h, using: &rng), width: bw, height: bh)
        case 4: return ImageRect(x: Double.random(in: -w...2 * w, using: &rng), y: Double.random(in: -h...2 * h, using: &rng), width: bw, height: bh)
        default: return ImageRect(x: Double.random(in: 0..<w, using: &rng), y: Double.random(in: 0..<h, using: &rng), width: bw, height: bh)
        }
    }

    func testRandomTracksAreWrittenSoTheyReadBack() throws {
        var rng = SystemRandomNumberGenerator()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("veil-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = ImageRect(x: 0, y: 0, width: Double(Self.frame.width), height: Double(Self.frame.height))
        for round in 0..<50 {
            let recorder = TrackRecorder()
            var onFrame = 0
            let frames = 40
            for f in 0..<frames {
                let faces = (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                    TrackedBox(id: Int.random(in: 1...12, using: &rng), box: Self.randomBox(&rng), detected: Bool.random(using: &rng), score: Float.random(in: 0...1, using: &rng))
                }
                // One sighting a track a frame, as a tracker gives.
                var seen = Set<Int>()
                let unique = faces.filter { seen.insert($0.id).inserted }
                onFrame += unique.filter { $0.box.intersection(whole) != nil }.count
                recorder.record(VideoAnonymizer.FrameRecord(index: f, time: Double(f) / 25, faces: unique))
            }
            let url = dir.appendingPathComponent("round-\(round).veil.json")
            let written = Self.state(recorder.tracks(frameSize: Self.frame), frames: frames)
            try written.save(to: url)
            let read = try VideoEditingState.load(from: url)
            // Read back as written (scores are kept to 1e-4, boxes to the 1e-5 grid they were written on).
            XCTAssertEqual(read.tracks.map(\.id), written.tracks.map(\.id), "round \(round)")
            for (r, w) in zip(read.tracks.flatMap(\.frames), written.tracks.flatMap(\.frames)) {
                XCTAssertEqual(r.frame, w.frame)
                XCTAssertEqual(r.score, w.score, accuracy: 1e-4)
                for (a, b) in zip([r.box.x, r.box.y, r.box.width, r.box.height], [w.box.x, w.box.y, w.box.width, w.box.height]) {
                    XCTAssertEqual(a, b, accuracy: 1e-9, "round \(round): \(r.box) read, \(w.box) written")
                }
            }
            let sightings = read.tracks.flatMap(\.frames)
            XCTAssertEqual(sightings.count, onFrame, "round \(round): every box on the frame is kept, every box off it left out")
            for s in sightings {
                XCTAssertTrue(s.box.x < 1 && s.box.y < 1 && s.box.x + s.box.width > 0 && s.box.y + s.box.height > 0, "round \(round): \(s.box) is off the frame")
            }
        }
    }

    /// A state Veil 0.9.0 wrote, holding a track coasted off the top of the
    /// frame (the y = -1.02): read, with that sighting left out.
    func testAStateWithABoxOffTheFrameReads() throws {
        let off = EditingState.Box(x: 0.18836, y: -1.02239, width: 0.03638, height: 0.06934)
        let on = EditingState.Box(x: 0.2, y: 0.1, width: 0.04, height: 0.07)
        let state = Self.state([.init(id: 246, status: .covered, frames: [.init(frame: 3, box: on, detected: true, score: 0.1),
                                                                           .init(frame: 23, box: off, detected: false, score: 0.1)]),
                                .init(id: 247, status: .covered, frames: [.init(frame: 5, box: off, detected: false, score: 0.1)])], frames: 30)
        let read = try VideoEditingState.decode(try JSONEncoder().encode(state))
        XCTAssertEqual(read.tracks.map(\.id), [246])
        XCTAssertEqual(read.tracks[0].frames.map(\.frame), [3])
    }
}
