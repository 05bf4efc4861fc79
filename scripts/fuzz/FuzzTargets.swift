// libFuzzer entry point for Veil's own parsers, built by scripts/fuzz with
// `swiftc -sanitize=fuzzer,address` against the library modules compiled with
// coverage. VEIL_FUZZ_TARGET picks what the bytes are fed to:
//   state      EditingState.decode (then the regions and strokes rendered)
//   multipart  VeilServe's Multipart.parse
//   options    TextNumber, RegionEdits and LiftOptions ("name=value" lines)
//   onnx       ONNXGraphRepair.repair
// A crash is a finding: libFuzzer writes the input to crash-<sha1>.
import Foundation
@testable import VeilKit
@testable import VeilServe
import VeilVocabulary

struct Lines: OptionSource {
    var given: [String: [String]] = [:]
    init(_ bytes: UnsafeRawBufferPointer) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            given[kv[0], default: []].append(kv.count > 1 ? kv[1] : "")
        }
    }
    func values(_ name: String) -> [String] { given[name] ?? [] }
    func flag(_ name: String) -> Bool { given[name] != nil }
    func spelling(_ name: String) -> String { name }
}

let target = ProcessInfo.processInfo.environment["VEIL_FUZZ_TARGET"] ?? "state"
let image = try! VeilImage(pixels: (0..<(64 * 48 * 3)).map { UInt8($0 % 251) }, width: 64, height: 48, bands: 3)
let folder = URL(fileURLWithPath: NSTemporaryDirectory())

func render(_ state: EditingState) {
    let (regions, strokes) = state.coverInput()
    var style = state.style
    if case .image = style { style = .solid(RGB(0, 0, 0)) }
    _ = try? FaceCover(style: style, profile: MaskProfile(scale: state.maskScale)).apply(to: image, regions: regions, strokes: strokes).pixelBytes()
}

let base = try! EditingState.decode(Data("""
    {"format":"veil-editing-state","version":1,"source":{"file":"a.png","sha256":"0","width":64,"height":48},"original":"a.png",
     "faces":{"status":"recognized","threshold":0.5,"faces":[{"box":{"x":0.1,"y":0.1,"width":0.3,"height":0.3},"confidence":0.9}]},
     "regions":{"status":"notYet"},"strokes":[],"style":"pixelate","shape":"disc","maskScale":1}
    """.utf8))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    switch target {
    case "state":
        if let state = try? EditingState.decode(Data(bytes), folder: folder) { render(state) }
    case "multipart":
        _ = try? Multipart.parse(Data(bytes), boundary: "XyZ")
    case "options":
        let source = Lines(bytes)
        for (_, values) in source.given { for v in values { _ = try? TextNumber.list(v, count: 4, in: -1e7...1e7, option: "x", what: "x") } }
        _ = try? LiftOptions(source) { _ in throw InputError("no background") }
        if let edits = try? RegionEdits(source) {
            var state = base
            if (try? state.apply(edits)) != nil { render(state) }
        }
    case "onnx":
        _ = try? ONNXGraphRepair.repair(Array(bytes), symbolicAxes: [0, 2, 3])
    default:
        fatalError("VEIL_FUZZ_TARGET must be state, multipart, options or onnx")
    }
    return 0
}
