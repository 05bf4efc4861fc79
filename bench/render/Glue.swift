import VeilKit

/// How a video frame is covered on this branch: the renderer, in place on the frame's own buffer.
struct FrameRenderer {
    let renderer: CoverRenderer
    init(_ cover: FaceCover) throws { renderer = try cover.renderer() }
    func render(_ pixels: inout [UInt8], width: Int, height: Int, bands: Int, regions: [CoverRegion]) throws {
        try renderer.render(into: &pixels, width: width, height: height, bands: bands, regions: regions)
    }
}
