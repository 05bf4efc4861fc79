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

extension GuidedFilter {
    /// The colour version: the guide is RGB (0...1 float, 3 bands), so an
    /// edge between two colours of equal brightness still stops the filter.
    /// Each window's 3x3 colour covariance is inverted by cofactors, all as
    /// libvips operations.
    func apply(source p: VeilImage, colourGuide guide: VeilImage) throws -> VeilImage {
        let r = radius
        let ch = try (0..<3).map { try guide.band($0) }
        let mean = try ch.map { try $0.boxBlurred(radius: r) }
        let meanP = try p.boxBlurred(radius: r)
        let cov = try (0..<3).map { try (ch[$0] * p).boxBlurred(radius: r) - mean[$0] * meanP }
        func variance(_ i: Int, _ j: Int) throws -> VeilImage {
            let v = try (ch[i] * ch[j]).boxBlurred(radius: r) - mean[i] * mean[j]
            return i == j ? try v.linear(1, epsilon) : v
        }
        let a = try variance(0, 0), b = try variance(0, 1), c = try variance(0, 2)
        let d = try variance(1, 1), e = try variance(1, 2), f = try variance(2, 2)
        let i00 = try d * f - e * e, i01 = try c * e - b * f, i02 = try b * e - c * d
        let i11 = try a * f - c * c, i12 = try b * c - a * e, i22 = try a * d - b * b
        let det = try a * i00 + b * i01 + c * i02
        let rows = [[i00, i01, i02], [i01, i11, i12], [i02, i12, i22]]
        let coefficients = try rows.map { row in
            try (row[0] * cov[0] + row[1] * cov[1] + row[2] * cov[2]) / det
        }
        let offset = try meanP - (coefficients[0] * mean[0] + coefficients[1] * mean[1] + coefficients[2] * mean[2])
        var q = try offset.boxBlurred(radius: r)
        for k in 0..<3 { q = try q + coefficients[k].boxBlurred(radius: r) * ch[k] }
        return q
    }
}
