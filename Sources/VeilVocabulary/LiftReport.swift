import Foundation
import VeilKit

/// One image's entry in `veil lift --json` and `POST /v1/lift?json=1`: the
/// instances (label, area, box in pixels), the chosen labels, the file written.
/// `Codable` for readers; written through `JSONText` to keep the documented key order.
public struct LiftReport: FileReport, Codable, Equatable {
    public struct Instance: Codable, Sendable, Equatable {
        public var label, area, x, y, width, height: Int
    }

    public var file: String
    public var width: Int?
    public var height: Int?
    public var instances: [Instance]?
    public var chosen: [Int]?
    public var output: String?
    public var error: String?

    public init(file: String, size: PixelSize, instances: [InstanceInfo], chosen: IndexSet, output: String?) {
        self.file = file
        width = size.width
        height = size.height
        self.instances = instances.map {
            Instance(label: $0.label, area: $0.area, x: $0.boundingBox.x, y: $0.boundingBox.y,
                     width: $0.boundingBox.width, height: $0.boundingBox.height)
        }
        self.chosen = Array(chosen)
        self.output = output
    }

    public init(file: String, error: String) { (self.file, self.error) = (file, error) }

    public var results: JSONText? {
        guard let width, let height, let instances, let chosen else { return nil }
        var pairs: [(String, JSONText)] = [
            ("file", .string(file)), ("width", .int(width)), ("height", .int(height)),
            ("instances", .array(instances.map {
                .object([("label", .int($0.label)), ("area", .int($0.area)), ("x", .int($0.x)), ("y", .int($0.y)),
                         ("width", .int($0.width)), ("height", .int($0.height))])
            })),
            ("chosen", .array(chosen.map { .int($0) })),
        ]
        if let output { pairs.append(("output", .string(output))) }
        return .object(pairs)
    }
}
