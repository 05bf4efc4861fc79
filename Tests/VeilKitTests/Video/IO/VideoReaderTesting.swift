import Foundation
@testable import VeilKit

extension VideoReader {
    /// An open reader of a file (tests read inputs and outputs back).
    convenience init(url: String) throws {
        self.init()
        try open(url, format: nil, maxPixels: 0)
    }
}
