/// The colours a reviewer reads a video's editing state by, the same on the
/// track sheet (`TrackSheet`) and the review video (`VideoPreview`): a
/// track covered, an added region, a text track; anything dropped in red.
enum ReviewColors {
    static let covered = RGB(60, 230, 90), added = RGB(80, 160, 255), text = RGB(200, 120, 255), dropped = RGB(255, 60, 60)

    /// `color`, or red when the thing is dropped (uncovered).
    static func of(_ status: VideoEditingState.Status, else color: RGB) -> RGB { status == .dropped ? dropped : color }
}
