@testable import VeilKit
import XCTest

/// The pacing of a live source's detections, on a clock given in nanoseconds.
final class LivePacingTests: XCTestCase {
    let ms: UInt64 = 1_000_000
    let start: UInt64 = 1_000_000_000_000

    /// A file is never paced: every frame may detect, with the file's schedule, however late.
    func testAFileIsNeverPaced() {
        var pacing = LivePacing(realtime: false, view: false)
        pacing.analysed(frame: 0, detected: true, full: true, at: start)
        let d = pacing.decide(frame: 1, waiting: 20, skipped: 0, decodedAt: start, now: start + 900 * ms)
        XCTAssertEqual(d, LivePacing.Decision(mayDetect: true, keepingUp: false))
    }

    /// On time every frame detects with the live schedule; late, every
    /// second frame; very late, every fourth, with the file's schedule.
    func testLatenessThinsDetectionsAndVeryLateReturnsTheFilesSchedule() {
        var pacing = LivePacing(realtime: true, view: false)
        XCTAssertEqual(pacing.decide(frame: 0, waiting: 0, skipped: 0, decodedAt: start, now: start + 5 * ms),
                       LivePacing.Decision(mayDetect: true, keepingUp: true))
        pacing.analysed(frame: 0, detected: true, full: false, at: start + 40 * ms)
        let onTime = pacing.decide(frame: 1, waiting: 1, skipped: 0, decodedAt: start + 40 * ms, now: start + 50 * ms)
        XCTAssertEqual(onTime, LivePacing.Decision(mayDetect: true, keepingUp: true))
        pacing.analysed(frame: 1, detected: true, full: false, at: start + 90 * ms)
        // 120 ms late: the frame after a detection skips, the next detects.
        XCTAssertFalse(pacing.decide(frame: 2, waiting: 1, skipped: 0, decodedAt: start, now: start + 120 * ms).mayDetect)
        XCTAssertTrue(pacing.decide(frame: 3, waiting: 1, skipped: 0, decodedAt: start, now: start + 120 * ms).mayDetect)
        XCTAssertTrue(pacing.decide(frame: 3, waiting: 1, skipped: 0, decodedAt: start, now: start + 120 * ms).keepingUp)
        // 200 ms late: only every fourth frame, and the file's schedule.
        let veryLate = (2...5).map { pacing.decide(frame: $0, waiting: 1, skipped: 0, decodedAt: start, now: start + 200 * ms) }
        XCTAssertEqual(veryLate.map(\.mayDetect), [false, false, false, true])
        XCTAssertEqual(Set(veryLate.map(\.keepingUp)), [false])
        // More than `backlog` frames waiting is very late too, however recent the frame.
        XCTAssertFalse(pacing.decide(frame: 5, waiting: LivePacing.backlog + 1, skipped: 0, decodedAt: start, now: start + ms).keepingUp)
    }

    /// The frames that queued while a detection of every pass ran keep the
    /// live schedule though very late; a frame decoded after it ended does not.
    func testFramesQueuedBehindAFullDetectionKeepTheLiveSchedule() {
        var pacing = LivePacing(realtime: true, view: false)
        let ended = start + 300 * ms
        pacing.analysed(frame: 0, detected: true, full: true, at: ended)
        let behind = pacing.decide(frame: 4, waiting: 6, skipped: 0, decodedAt: start + 160 * ms, now: ended + 100 * ms)
        XCTAssertEqual(behind, LivePacing.Decision(mayDetect: true, keepingUp: true), "240 ms late, queued behind the full detection")
        XCTAssertFalse(pacing.decide(frame: 2, waiting: 6, skipped: 0, decodedAt: start + 80 * ms, now: ended + 20 * ms).mayDetect,
                       "still thinned to every fourth frame")
        let after = pacing.decide(frame: 12, waiting: 6, skipped: 0, decodedAt: ended + 10 * ms, now: ended + 200 * ms)
        XCTAssertEqual(after, LivePacing.Decision(mayDetect: true, keepingUp: false))
        // An ordinary detection does not excuse the frames behind it.
        pacing.analysed(frame: 12, detected: true, full: false, at: ended + 400 * ms)
        XCTAssertFalse(pacing.decide(frame: 16, waiting: 2, skipped: 0, decodedAt: ended + 300 * ms, now: ended + 500 * ms).keepingUp)
    }

    /// A live view detects every second frame once one waits, and always after dropped frames.
    func testALiveViewDetectsAfterDropsAndEverySecondFrameWhenBehind() {
        var pacing = LivePacing(realtime: true, view: true)
        pacing.analysed(frame: 0, detected: true, full: false, at: start)
        XCTAssertTrue(pacing.decide(frame: 1, waiting: 0, skipped: 0, decodedAt: start, now: start + 500 * ms).mayDetect)
        XCTAssertFalse(pacing.decide(frame: 1, waiting: 1, skipped: 0, decodedAt: start, now: start).mayDetect)
        XCTAssertTrue(pacing.decide(frame: 1, waiting: 1, skipped: 3, decodedAt: start, now: start).mayDetect)
        XCTAssertTrue(pacing.decide(frame: 2, waiting: 2, skipped: 0, decodedAt: start, now: start).mayDetect)
    }
}
