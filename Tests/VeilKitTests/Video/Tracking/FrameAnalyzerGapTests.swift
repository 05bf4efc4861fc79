import Foundation
@testable import VeilKit
import VeilTestSupport
import XCTest

/// A live view that falls behind drops frames, and the analyser sees every
/// sixth frame of a panning camera: told how many were dropped (`skipped`),
/// it follows the camera across each gap and the faces keep their tracks;
/// told nothing, each frame reads as a new shot and every track ends.
final class FrameAnalyzerGapTests: XCTestCase {
    func testTracksLastAcrossDroppedFramesWhenTheGapIsKnown() async throws {
        let scratch = try TestData.scratch(self)
        let clip = try TestData.panClip(in: scratch)
        let reader = try VideoReader(url: clip.video.path)
        var kept: [[UInt8]] = []
        var index = 0
        reading: while true {
            switch try reader.next() {
            case let .frame(pixels, _, _):
                if index % 6 == 0 { kept.append(pixels) }
                index += 1
            case .packet: continue
            case .end: break reading
            }
        }
        let run = VideoRun(request: VideoAnonymizer(), plan: .detect)
        var told = FrameAnalyzer(run: run, info: reader.info), blind = FrameAnalyzer(run: run, info: reader.info)
        var cuts = (told: 0, blind: 0), boxes = 0
        for (k, pixels) in kept.enumerated() {
            let a = try await told.analyze(pixels, index: k, mayDetect: true, skipped: k == 0 ? 0 : 5)
            let b = try await blind.analyze(pixels, index: k, mayDetect: true)
            cuts.told += a.cut ? 1 : 0
            cuts.blind += b.cut ? 1 : 0
            boxes += a.boxes.count
        }
        XCTAssertEqual(cuts.told, 0, "a pan read as a cut across a known gap")
        XCTAssertGreaterThan(cuts.blind, kept.count / 2, "the gaps were within one frame's reach: the test shows nothing")
        // Faces seen again keep their tracks: far fewer than one a face a frame.
        XCTAssertLessThan(Double(told.trackCount), 0.6 * Double(blind.trackCount),
                          "told \(told.trackCount) tracks, blind \(blind.trackCount), \(boxes) boxes on \(kept.count) frames")
    }
}
