import Foundation

/// A request that analyses one upright image, as Vision's requests do: the
/// file and data entry points decode (limits and EXIF orientation from
/// `decoder`) and hand the picture to `perform(on:orientation:)`, so each
/// request writes only its analysis.
public protocol ImageRequest: Sendable {
    associatedtype Observation: Sendable
    var decoder: ImageDecoder { get }
    /// The image turned upright by `orientation` first; results refer to the upright image.
    func perform(on image: VeilImage, orientation: ImageOrientation) async throws -> [Observation]
}

extension ImageRequest {
    /// The image at `url`. With `orientation` nil the file's EXIF orientation is honoured.
    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws -> [Observation] {
        try await perform(on: decoder.decode(.url(url), orientation: orientation).image, orientation: .up)
    }

    /// Encoded image bytes (JPEG, PNG, WebP, HEIC, TIFF).
    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws -> [Observation] {
        try await perform(on: decoder.decode(.data(data), orientation: orientation).image, orientation: .up)
    }

    /// An upright decoded image.
    public func perform(on image: VeilImage) async throws -> [Observation] {
        try await perform(on: image, orientation: .up)
    }
}
