import Foundation
@testable import VeilKit
import XCTest

/// Which frames a re-render's edits change (`framesChanged`), and the GOPs a
/// previous output's packets make (`VideoSplice.gops`): what decides which
/// GOPs a re-render copies.
final class VideoSplicePlanTests: XCTestCase {
    private func state(frames: Int = 100) -> VideoEditingState {
        func track(_ id: Int, _ range: ClosedRange<Int>) -> VideoEditingState.Track {
            .init(id: id, status: .covered, frames: range.map { .init(frame: $0, box: .init(x: 0.1, y: 0.1, width: 0.1, height: 0.1), detected: true, score: 0.9) })
        }
        return VideoEditingState(source: .init(file: "a.mp4", sha256: String(repeating: "0", count: 64), size: 1, width: 640, height: 360,
                                               framesPerSecond: 25, frames: frames),
                                 style: .solid(RGB(255, 0, 255)), shape: .box, maskScale: 1.1, tracks: [track(1, 10...20), track(2, 0...99)])
    }

    private func changed(_ a: VideoEditingState, _ b: VideoEditingState, from: [Int: Int] = [:]) -> [Int] {
        b.framesChanged(since: a, followedFrom: from).enumerated().filter(\.element).map(\.offset)
    }

    func testEditsChangeTheFramesTheyTouch() throws {
        let old = state()
        XCTAssertEqual(changed(old, old), [], "no edit, no change")
        var dropped = old
        try dropped.apply(VideoEdits(drop: [1]))
        XCTAssertEqual(changed(old, dropped), Array(10...20), "a dropped track: its frames")
        var added = old
        try added.apply(VideoEdits(add: [.init(keys: [(30, ImageRect(x: 10, y: 10, width: 20, height: 20)), (35, ImageRect(x: 20, y: 10, width: 20, height: 20))])]))
        XCTAssertEqual(changed(old, added), Array(30...35), "an interpolated box: its key frames and between")
        var followed = old
        try followed.apply(VideoEdits(add: [.init(keys: [(60, ImageRect(x: 10, y: 10, width: 20, height: 20))])]))
        XCTAssertEqual(changed(old, followed, from: [3: 52]), Array(52...99), "a box still to follow: from its backward follow to the end")
        var painted = old
        try painted.apply(VideoEdits(strokes: [.init(first: 70, last: 72, stroke: Stroke(points: [.init(x: 5, y: 5), .init(x: 50, y: 5)], width: 4))]))
        XCTAssertEqual(changed(old, painted), [70, 71, 72], "a pen stroke: its frames")
        var restyled = old
        restyled.style = .solid(RGB(0, 0, 0))
        XCTAssertEqual(changed(old, restyled).count, 100, "another style: every frame")
    }

    func testGOPsAreClosedOrRefused() throws {
        // I P B B | I P B B (presentation 0 3 1 2 | 4 7 5 6): two closed GOPs.
        let closed = VideoPackets(pts: [0, 3, 1, 2, 4, 7, 5, 6], key: [true, false, false, false, true, false, false, false])
        XCTAssertEqual(try VideoSplice.gops(of: closed, times: closed.pts.sorted()).map(\.frames), [0..<4, 4..<8])
        // An open GOP: B-frames after the second keyframe are shown before it (and reference the GOP before).
        let open = VideoPackets(pts: [0, 3, 1, 2, 6, 4, 5, 7], key: [true, false, false, false, true, false, false, false])
        XCTAssertThrowsError(try VideoSplice.gops(of: open, times: open.pts.sorted()))
        let noKey = VideoPackets(pts: [0, 1], key: [false, true])
        XCTAssertThrowsError(try VideoSplice.gops(of: noKey, times: noKey.pts.sorted()))
    }

    func testParameterSetsCompareAcrossAvcCAndAnnexB() {
        let sps: [UInt8] = [0x67, 0x64, 0x00, 0x1F, 0xAC], pps: [UInt8] = [0x68, 0xEF, 0x86]
        let annexB = [0, 0, 0, 1] + sps + [0, 0, 0, 1] + pps
        let avcC: [UInt8] = [1, 0x64, 0x00, 0x1F, 0xFF, 0xE1, 0, UInt8(sps.count)] + sps + [1, 0, UInt8(pps.count)] + pps + [0xFD, 0xF8, 0xF8, 0]
        XCTAssertEqual(parameterSets(annexB), [sps, pps])
        XCTAssertEqual(parameterSets(avcC), [sps, pps])
        XCTAssertNotEqual(parameterSets(annexB), parameterSets([0, 0, 0, 1] + sps + [0, 0, 0, 1, 0x68, 0xEE, 0x86]))
        XCTAssertNil(parameterSets([1, 2]))
    }
}
