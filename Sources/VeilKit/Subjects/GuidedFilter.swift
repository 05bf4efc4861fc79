/// The edge-aware guided filter (He, Sun and Tang, 2010) with a grey guide,
/// written as libvips box filters and pixel arithmetic: it pulls a soft mask
/// that was upscaled from 320x320 onto the edges of the full-size photo.
struct GuidedFilter: Sendable {
    /// Window radius in pixels of the image being filtered.
    var radius: Int
    /// Regularisation on the guide's variance (guide in 0...1): larger is smoother.
    var epsilon: Double

    /// `source` (one band, float) filtered under `guide` (one band, 0...1 float), same size.
    func apply(source p: VeilImage, guide i: VeilImage) throws -> VeilImage {
        let r = radius
        let meanI = try i.boxBlurred(radius: r)
        let meanP = try p.boxBlurred(radius: r)
        let varI = try (i * i).boxBlurred(radius: r) - meanI * meanI
        let covIP = try (i * p).boxBlurred(radius: r) - meanI * meanP
        let a = try covIP / varI.linear(1, epsilon)
        let b = try meanP - a * meanI
        return try a.boxBlurred(radius: r) * i + b.boxBlurred(radius: r)
    }
}
