import VeilKit

/// How a video frame was covered on main (VideoAnonymizer): a VeilImage made
/// from the frame's bytes, FaceCover.apply, and the bytes read back.
struct FrameRenderer {
    let cover: FaceCover
    init(_ cover: FaceCover) throws { self.cover = cover }
    func render(_ pixels: inout [UInt8], width: Int, height: Int, bands: Int, regions: [CoverRegion]) throws {
        let frame = try VeilImage(pixels: pixels, width: width, height: height, bands: bands)
        pixels = try cover.apply(to: frame, regions: regions).pixelBytes()
    }
}
