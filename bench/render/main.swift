// veil-bench-render: render time of one 1080p photo or frame with 1, 10, 100
// and 500 crowd-sized regions, per style and API. bench/render/run builds it
// twice (this branch and main, each with its own Glue.swift) and prints the two
// side by side; it prints one JSON line per case. Timing lives here, never in tests.
import Foundation
import VeilKit

struct Options {
    var input: String?
    var counts = [1, 10, 100, 500]
    var styles = ["pixelate", "blur"]
    var apis = ["frame", "photo"]
    var budget = 1.5        // seconds per case, at most
    var dump: String?       // write each 500-region frame here (raw RGB) for pixel comparison
    var label = "new"

    init(_ args: [String]) {
        var i = 1
        func next() -> String { i += 1; return i < args.count ? args[i] : "" }
        while i < args.count {
            switch args[i] {
            case "--input": input = next()
            case "--counts": counts = next().split(separator: ",").compactMap { Int($0) }
            case "--styles": styles = next().split(separator: ",").map(String.init)
            case "--apis": apis = next().split(separator: ",").map(String.init)
            case "--budget": budget = Double(next()) ?? budget
            case "--dump": dump = next()
            case "--label": label = next()
            default: FileHandle.standardError.write("veil-bench-render: unknown argument \(args[i])\n".data(using: .utf8)!); exit(2)
            }
            i += 1
        }
    }
}

/// Crowd faces: 16-48 px boxes anywhere in the frame, from a fixed seed.
func crowd(_ count: Int, size: PixelSize) -> [CoverRegion] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double { state = state &* 6364136223846793005 &+ 1442695040888963407; return Double(state >> 11) / Double(1 << 53) }
    return (0..<count).map { _ in
        let side = 16 + next() * 32
        return CoverRegion(rect: ImageRect(x: next() * (Double(size.width) - side), y: next() * (Double(size.height) - side), width: side, height: side * 1.25))
    }
}

/// CPU seconds of the whole process (all threads: libvips works on several),
/// which a machine shared with other builds disturbs far less than wall time.
func processCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

let options = Options(CommandLine.arguments)
var image: VeilImage
if let input = options.input {
    image = try ImageDecoder().decode(.url(URL(fileURLWithPath: input))).image
} else {
    image = try ImageDecoder().decode(.url(VeilHome.default.path(of: .astronaut))).image
}
if image.size != PixelSize(width: 1920, height: 1080) { image = try image.resized(width: 1920, height: 1080) }
let original = try image.pixelBytes(), bands = image.bands
image = try VeilImage(pixels: original, width: 1920, height: 1080, bands: bands).materialized()

for style in options.styles {
    let cover = FaceCover(style: try CoverStyle(spelling: style))
    let frame = try FrameRenderer(cover)
    for api in options.apis {
        for count in options.counts {
            let regions = crowd(count, size: image.size)
            var times: [Double] = [], cpu: [Double] = []
            var out: [UInt8] = []
            let started = Date()
            // One untimed render first: the first call of a process pays for
            // binding symbols and growing the heap, which no later one does.
            var round = -1
            while times.count < 3 || (Date().timeIntervalSince(started) < options.budget && times.count < 50) {
                var pixels = original, photo: VeilImage?
                // The copy is made here, untimed: the video pipeline covers its frames in place.
                if api == "frame" { pixels.withUnsafeMutableBufferPointer { _ in } }
                let t0 = DispatchTime.now().uptimeNanoseconds, c0 = processCPU()
                if api == "frame" {
                    try frame.render(&pixels, width: 1920, height: 1080, bands: bands, regions: regions)
                } else {
                    // Computed into memory: free where apply returns a memory
                    // image already, a copy where it returns a libvips recipe.
                    photo = try cover.apply(to: image, regions: regions).materialized()
                }
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6, used = (processCPU() - c0) * 1e3
                round += 1
                if round > 0 { times.append(elapsed); cpu.append(used) }
                out = try photo?.pixelBytes() ?? pixels
            }
            if let dump = options.dump, count == options.counts.max() {
                try Data(out).write(to: URL(fileURLWithPath: "\(dump)/\(options.label)-\(style)-\(api).rgb"))
            }
            let line = "{\"impl\":\"\(options.label)\",\"style\":\"\(style)\",\"api\":\"\(api)\",\"regions\":\(count),\"ms\":\(String(format: "%.3f", median(times))),\"cpu_ms\":\(String(format: "%.3f", median(cpu))),\"runs\":\(times.count)}\n"
            FileHandle.standardOutput.write(line.data(using: .utf8)!)
        }
    }
}
