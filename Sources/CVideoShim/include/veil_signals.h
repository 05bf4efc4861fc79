// SIGINT and SIGTERM into a pipe: a process-wide handler (it runs on
// whichever thread the kernel picks, ONNX Runtime's or FFmpeg's included)
// writes the signal's number as one byte; a thread of the caller's reads it.
#ifndef VEIL_SIGNALS_H
#define VEIL_SIGNALS_H

/* Installs the handler (once); returns the pipe's read end, -1 on failure. */
int veil_signal_pipe(void);

#endif
