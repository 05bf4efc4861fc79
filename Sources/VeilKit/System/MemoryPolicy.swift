import CSystem
import CSystemShim

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

    /// Video frames and a photo batch's per-pass blocks (the network's input
    /// and outputs, the resized crops) are allocated and freed again and
    /// again. Mapped afresh above the 4 MB threshold, and trimmed off a heap's
    /// top above glibc's 128 KB, every page of them was faulted in again each
    /// time. Kept in the heaps (blocks up to `bytes`, 32 MB being the most
    /// glibc accepts, and four such blocks of a heap's free top), they are
    /// reused: less system time for a slightly higher peak
    /// (docs/design/video-tracking.md#the-pipeline,
    /// docs/design/faces.md#photos-detection-where-faces-can-be). For the
    /// commands that stream frames or photos; not for `veil serve` between
    /// requests, whose memory must fall back after a burst
    /// (`releaseFreePages` hands the kept pages back).
    public static func reuseLargeBlocks(upTo bytes: Int = 32 << 20) {
        returnLargeBlocksToSystem(over: bytes)
        _ = mallopt(M_TRIM_THRESHOLD, Int32(4 * bytes))
    }

    /// No transparent huge pages for this process (nor the processes it
    /// starts). x264 asks for them for its frame buffers, so when its encoder
    /// opens the kernel zeroes (and, under the usual `defrag=madvise`, may
    /// first compact memory for) 2 MB at each fault, on a second core while
    /// a live stream's first frame runs every detection pass on both: that
    /// frame, and the p99 behind it, waited for it; a file keeps its speed
    /// (docs/design/video-tracking.md#a-streams-first-second). For `veil video`.
    /// False where the kernel has no such switch.
    @discardableResult
    public static func refuseHugePages() -> Bool {
        veil_refuse_huge_pages() == 0
    }

    /// Hands the free pages inside every malloc heap back to the system.
    /// glibc only trims a heap's top; blocks freed in its middle (frames,
    /// detection buffers of other threads) stay resident. Cheap enough for
    /// once a second of video.
    public static func releaseFreePages() {
        _ = malloc_trim(0)
    }
}
