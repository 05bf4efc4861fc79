import CSystem

/// Process-wide memory settings for long batches.
public enum MemoryPolicy {
    /// Images of changing sizes make ONNX Runtime and libvips allocate and free
    /// large blocks. glibc raises its mmap threshold each time such a block is
    /// freed, then serves the next ones from a heap it never shrinks, so a
    /// batch's memory grows towards the sum of its largest moments. Fixing the
    /// threshold at `bytes` hands every larger block back to the system when
    /// freed. Measured on the 36 dev photos (`veil faces`): peak RSS 625 MB → 370 MB,
    /// same speed.
    /// Call it once, early, in a process that owns its allocator (the CLI does).
    public static func returnLargeBlocksToSystem(over bytes: Int = 4 << 20) {
        _ = mallopt(M_MMAP_THRESHOLD, Int32(bytes))
    }

    /// Video frames are blocks of one size (6 MB at 1080p) allocated and freed
    /// every frame: mapped and unmapped each time, every page of every frame
    /// is faulted in afresh. Kept in the heap, they are reused. Measured on
    /// crowd-1080p without detection: system time 2.9 s → 1.2–1.5 s, peak
    /// RSS 479 → 495 MB. (32 MB is the most glibc accepts.) Call it for a
    /// process that streams frames (`veil video`).
    ///
    /// Freed at the top of a heap, glibc gave them back too (its trim
    /// threshold, 128 KB) and faulted them in again: `perf` of a 1080p
    /// re-render (crowd-1080p, every frame re-encoded) gave the kernel 10%
    /// of its CPU, page faults under the frames' allocation. Up to four
    /// blocks of `bytes` stay: system time 0.30–0.64 s → 0.11–0.13 s, peak
    /// RSS +8 MB; `releaseFreePages` still hands them back once a second.
    public static func reuseFrameSizedBlocks(upTo bytes: Int = 32 << 20) {
        returnLargeBlocksToSystem(over: bytes)
        _ = mallopt(M_TRIM_THRESHOLD, Int32(4 * bytes))
    }

    /// A batch of photos allocates per pass blocks of a few MB (the network's
    /// input, its outputs, the resized crops) and frees them a few ms later:
    /// mapped afresh above a 4 MB threshold, and trimmed off a heap's top above
    /// the default 128 KB, every page of them was faulted in again for every
    /// pass: the frames' case, and the same settings (blocks up to 32 MB
    /// served from the heaps, 128 MB of a heap's free top kept). Measured on
    /// the 36 dev photos (`veil blur`, 2 cores): system time 0.6 → 0.24 s, CPU
    /// 3.85 → 3.2 s, peak RSS 250 → 305 MB (deface: 899). For the photo
    /// commands, not for `veil serve`, whose memory must fall back between
    /// requests.
    public static func reuseBlocksWithinABatch() {
        reuseFrameSizedBlocks()
    }

    /// Hands the free pages inside every malloc heap back to the system.
    /// glibc only trims a heap's top; blocks freed in its middle (frames,
    /// detection buffers of other threads) stay resident. Cheap enough for
    /// once a second of video.
    public static func releaseFreePages() {
        _ = malloc_trim(0)
    }
}
