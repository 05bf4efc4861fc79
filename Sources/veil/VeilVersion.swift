/// Veil's version, the one place it is written: `veil --version`, help and the man page read it.
let VeilVersion = "0.9.0"
