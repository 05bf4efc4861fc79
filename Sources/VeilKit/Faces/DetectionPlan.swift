/// How an image is covered by detector passes so that small faces in large
/// photos are found without the memory of one full-resolution pass.
///
/// Images up to `singlePassPixels` get one pass at full resolution. Larger
/// ones get a whole-image pass shrunk to that budget (it finds the large faces)
/// plus full-resolution tiles overlapping by `overlap` pixels (they find the
/// small ones). A face cut by a tile's inner edge is dropped from that tile:
/// it is whole in the neighbouring tile if smaller than the overlap, and found
/// by the whole-image pass if larger.
public struct DetectionPlan: Sendable, Hashable {
    public var singlePassPixels: Int
    public var tileSize: Int
    public var overlap: Int

    public init(singlePassPixels: Int = 1_100_000, tileSize: Int = 1024, overlap: Int = 256) {
        self.singlePassPixels = singlePassPixels
        self.tileSize = tileSize
        self.overlap = overlap
    }

    struct Pass: Hashable {
        var region: PixelRect
        var scale: Double
        /// Which sides of `region` are inside the image (not its border).
        var innerEdges: (left: Bool, top: Bool, right: Bool, bottom: Bool)

        static func == (a: Pass, b: Pass) -> Bool { a.region == b.region && a.scale == b.scale }
        func hash(into h: inout Hasher) { h.combine(region); h.combine(scale) }
    }

    func passes(for size: PixelSize) -> [Pass] {
        let whole = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        let pixels = size.width * size.height
        if pixels <= singlePassPixels {
            return [Pass(region: whole, scale: 1, innerEdges: (false, false, false, false))]
        }
        var passes = [Pass(region: whole, scale: (Double(singlePassPixels) / Double(pixels)).squareRoot(),
                           innerEdges: (false, false, false, false))]
        let step = tileSize - overlap
        for y in stride(from: 0, to: size.height, by: step) {
            for x in stride(from: 0, to: size.width, by: step) {
                let region = PixelRect(x: x, y: y, width: min(tileSize, size.width - x), height: min(tileSize, size.height - y))
                passes.append(Pass(region: region, scale: 1, innerEdges: (
                    x > 0, y > 0, x + region.width < size.width, y + region.height < size.height)))
                if x + tileSize >= size.width { break }
            }
            if y + tileSize >= size.height { break }
        }
        return passes
    }
}
