import Foundation
@testable import VeilKit
@_exported import VeilTestSupport

/// Builders that need VeilKit's internals (the shared fixtures are in VeilTestSupport).
extension TestImages {
    /// Writes `image` as a JPEG whose EXIF orientation tag is `orientation`.
    static func writeJPEG(_ image: VeilImage, orientation: ImageOrientation, to url: URL) throws {
        let tagged = try image.settingOrientationTag(orientation)
        var encoder = ImageEncoder(format: .jpeg, quality: 95, keepMetadata: true)
        encoder.resetsOrientation = false
        try encoder.write(tagged, to: url)
    }
}

/// What a progress handler heard, in order (handlers are `@Sendable`).
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Double] = []
    func append(_ v: Double) { lock.withLock { list.append(v) } }
    var values: [Double] { lock.withLock { list } }
}
