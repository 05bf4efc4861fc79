import Foundation
import VeilKit

/// One lift as `LiftOptions` describe it, checked: the subject request (or
/// the person request with `people`), which instances, and the picture it
/// writes. What `veil lift` and `POST /v1/lift` run.
public struct SubjectLift: Sendable {
    public var request = GenerateForegroundInstanceMaskRequest()
    public var tap: NormalizedPoint?
    public var instances: IndexSet?
    public var crop = false
    public var maskOnly = false
    public var effect: SubjectEffect = .remove
    /// People (found by their faces) rather than subjects, split one a person.
    public var people: GeneratePersonInstanceMaskRequest?

    public init() {}

    /// The lift `source` describes (`LiftOptions`), checked as a whole; `background` as `LiftOptions.lift` takes it.
    public init(_ source: some OptionSource, background: (_ path: String?) throws -> VeilImage) throws {
        self = try LiftOptions(source).lift(spelling: source.spelling, background: background)
    }

    /// The subjects of `image` (upright), or its people with `people`; nil when there are none.
    public func perform(on image: VeilImage) async throws -> InstanceMaskObservation? {
        guard var people else { return try await request.perform(on: image) }
        people.segmentation.computeDevice = request.computeDevice
        people.segmentation.home = request.home
        return try await people.perform(on: image)
    }

    /// What an image without any has none of, for the one-line notice.
    public var lifted: String { people == nil ? "subject" : "person" }

    /// The instances to cut out: the tapped one (all on background), the
    /// listed ones that exist, or all.
    public func choose(_ observation: InstanceMaskObservation) -> IndexSet {
        if let tap {
            if let label = observation.instance(at: tap, origin: .upperLeft) { return IndexSet(integer: label) }
            return observation.allInstances
        }
        return instances ?? observation.allInstances
    }

    /// The picture to write: the soft mask, or the effect round the chosen
    /// instances. No subject gives an empty mask, so a batch's outputs stay complete.
    public func render(_ observation: InstanceMaskObservation?, chosen: IndexSet, of image: VeilImage) throws -> VeilImage {
        if let observation {
            return maskOnly
                ? try observation.generateScaledMask(for: chosen, croppedToInstancesExtent: crop).greyscaleImage()
                : try observation.applying(effect, to: chosen, croppedToInstancesExtent: crop)
        }
        let empty = try VeilImage.constant(RGB(0, 0, 0), size: image.size, bands: 1)
        return maskOnly ? empty : try effect.render(image, mask: empty)
    }
}
