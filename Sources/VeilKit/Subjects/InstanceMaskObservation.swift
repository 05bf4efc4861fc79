import Foundation

/// The foreground of an image split into instances, as Vision's
/// `InstanceMaskObservation`: a label image plus what is needed to cut out
/// any chosen set of instances with soft edges.
public struct InstanceMaskObservation: Sendable {
    /// 0 = background, 1...N = instances numbered by area, largest first.
    /// As in Vision, its resolution may be below the image's (the request's
    /// `workingSide`); address it with normalized points (`instance(at:)`).
    public let instanceMask: InstanceLabels
    /// Label, area and bounding box of each instance in pixels of `image`, in label order.
    public let instances: [InstanceInfo]
    /// The upright image the mask was computed for.
    public let image: VeilImage
    /// The soft foreground of the whole image (8-bit, one band), in memory, at the size of `instanceMask`.
    let soft: VeilImage
    /// `instanceMask` as an image, for libvips' table lookups.
    let labelImage: VeilImage
    /// How far (pixels) a chosen instance's soft edge may reach beyond its label pixels.
    let edgeReach: Int

    /// Every foreground label; never contains 0.
    public var allInstances: IndexSet { IndexSet(instances.map(\.label)) }

    /// The instance under `point` (normalized, measured from `origin`), nil on background.
    public func instance(at point: NormalizedPoint, origin: CoordinateOrigin = .lowerLeft) -> Int? {
        let w = instanceMask.width, h = instanceMask.height
        let x = min(w - 1, max(0, Int(point.x * Double(w))))
        let yUp = origin == .upperLeft ? point.y : 1 - point.y
        let y = min(h - 1, max(0, Int(yUp * Double(h))))
        guard let label = instanceMask.label(x: x, y: y), label != 0 else { return nil }
        return label
    }

    /// The soft mask of `instances` at the image's resolution, or cropped to
    /// their bounding box. Other instances and dropped specks are zero; the
    /// chosen ones keep their soft edges.
    public func generateScaledMask(for instances: IndexSet, croppedToInstancesExtent: Bool = false) throws -> ScaledMask {
        let extent = try self.extent(of: instances, cropped: croppedToInstancesExtent)
        var mask = try soft * selection(instances)
        if mask.width != image.width || mask.height != image.height {
            mask = try mask.resized(width: image.width, height: image.height, kernel: .linear)
        }
        mask = try mask.asUChar()
        if extent.width != image.width || extent.height != image.height { mask = try mask.cropped(to: extent) }
        return ScaledMask(image8: mask, extent: extent)
    }

    /// The image with everything but `instances` transparent (8-bit RGBA,
    /// colour zeroed where alpha is 0), optionally cropped to their bounding box.
    public func generateMaskedImage(for instances: IndexSet, croppedToInstancesExtent: Bool = false) throws -> VeilImage {
        let mask = try generateScaledMask(for: instances, croppedToInstancesExtent: croppedToInstancesExtent)
        var rgb = try image.srgb8()
        if mask.extent.width != image.width || mask.extent.height != image.height { rgb = try rgb.cropped(to: mask.extent) }
        return try mask.cutOut(of: rgb)
    }

    /// The bounding box of the chosen instances (or the whole image): what a
    /// cropped result shows, so a UI can map a tap on it back to the photo.
    public func extent(of chosen: IndexSet, cropped: Bool) throws -> PixelRect {
        guard !chosen.isEmpty else { throw VeilError.invalidArgument("no instances chosen") }
        let unknown = chosen.subtracting(allInstances)
        guard unknown.isEmpty else {
            throw VeilError.invalidArgument("no instance \(unknown.map(String.init).joined(separator: ",")); the image has \(instances.count)")
        }
        guard cropped else { return PixelRect(x: 0, y: 0, width: image.width, height: image.height) }
        let boxes = instances.filter { chosen.contains($0.label) }.map(\.boundingBox)
        let x0 = boxes.map(\.x).min()!, y0 = boxes.map(\.y).min()!
        let x1 = boxes.map { $0.x + $0.width }.max()!, y1 = boxes.map { $0.y + $0.height }.max()!
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// 0...1 weight: 1 within `edgeReach` pixels of a chosen instance, 0 on
    /// other instances and elsewhere.
    private func selection(_ chosen: IndexSet) throws -> VeilImage {
        var near = [UInt8](repeating: 0, count: 256), notOther = [UInt8](repeating: 1, count: 256)
        for info in instances {
            if chosen.contains(info.label) { near[info.label] = 255 } else { notOther[info.label] = 0 }
        }
        let grown = try labelImage.mapped(through: near).boxBlurred(radius: edgeReach).above(0)
        return try grown * labelImage.mapped(through: notOther).linear(1 / 255.0, 0)
    }
}
