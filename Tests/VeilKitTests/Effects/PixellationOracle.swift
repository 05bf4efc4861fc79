@testable import VeilKit

extension VeilImage {
    /// libvips' mosaic, the independent oracle of `Pixelation` (which covers
    /// faces in one pass of its own): square cells of `cell` pixels anchored
    /// at the top-left corner, each the mean of the pixels under it. Padded to
    /// whole cells (edge pixels copied), shrunk, zoomed back, cropped.
    func pixellated(cell: Int) throws -> VeilImage {
        guard cell >= 2 else { return self }
        let across = (width + cell - 1) / cell * cell, down = (height + cell - 1) / cell * cell
        let padded = try handle.call("embed", "x=0,y=0,width=\(across),height=\(down),extend=copy")
        let cells = try padded.call("shrink", "hshrink=\(cell),vshrink=\(cell)")
        let zoomed = try VipsHandle.call("zoom", ["input": cells], "xfac=\(cell),yfac=\(cell)")  // zoom and extract_area name their image "input"
        return VeilImage(try VipsHandle.call("extract_area", ["input": zoomed], "left=0,top=0,width=\(width),height=\(height)"))
    }
}
