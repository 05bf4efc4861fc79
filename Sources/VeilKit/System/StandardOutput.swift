import CSystemShim

/// C's standard output, which Swift's `print` writes through.
public enum StandardOutput {
    /// Line by line, also into a file or a pipe: a log that a signal or a
    /// kill ends still ends with whole lines (stdio's 4 KB blocks cut one
    /// mid-line). Images written to standard output bypass stdio.
    public static func lineBuffered() { veil_stdout_line_buffered() }

    /// What `print` holds, written out (before a process ends by `_exit`).
    public static func flush() { veil_stdout_flush() }
}
