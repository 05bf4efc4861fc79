import CVideoShim

/// FFmpeg's libraries, opened by the video shim on the first video call
/// rather than at every start (they and theirs are ~140 of the ~260 shared
/// libraries a process mapped: `veil help` took 80 ms of CPU, now 31; one
/// photo's `veil faces` 245 → 185 ms). The video entry points ask here
/// first, so a machine without them gets one clear line (the shim's calls
/// take them as loaded: C neither words nor ends anything).
public enum VideoLibraries {
    /// Loads FFmpeg if it is not yet loaded; throws when it cannot be.
    public static func require() throws {
        guard veil_video_available() == 0 else { return }
        let missing = String(cString: veil_video_missing())
        throw VeilError.unavailable("FFmpeg's libraries cannot be loaded (\(missing) is missing): install Debian's \(packages)")
    }

    /// The Debian packages that hold them (the shim opens the major versions its headers name).
    static let packages = "libavformat59, libavcodec59, libavdevice59, libswscale6 and libswresample4"
}
