#ifndef VEIL_SYSTEM_H
#define VEIL_SYSTEM_H

/* SIGINT and SIGTERM caught process-wide (sigaction, SA_RESTART) and written,
   one byte each (the signal number), to a pipe whose read end is returned
   (-1 on failure). A handler for the whole process sees a signal whatever
   thread it lands on (ONNX Runtime's threads included), where a dispatch
   source may lose it. Call once per process. */
int veil_signal_pipe(void);

/* The vector features this process may use on x86 (0 elsewhere): CPUID's
   bits where the OS also saves the registers they need (XCR0), as ONNX
   Runtime decides which kernels to run (a VM or kernel that leaves AVX-512
   state off makes it take the AVX2 ones, whatever CPUID says). With glibc
   2.33+ this is glibc's own reading, so GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F
   masks it too (bench/cpu-mask/run). */
enum {
    VEIL_CPU_AVX2 = 1,
    VEIL_CPU_AVX512F = 2,
    VEIL_CPU_AVX512_VNNI = 4,
    VEIL_CPU_AVX_VNNI = 8,
};
unsigned veil_cpu_features(void);

/* Transparent huge pages refused for this process and the processes it
   starts (prctl PR_SET_THP_DISABLE, Linux 3.15+): 0, or -1 where the kernel
   has no such switch. x264 asks for huge pages for its frame buffers
   (madvise MADV_HUGEPAGE), and the kernel then zeroes, and may first
   compact memory for, 2 MB at a fault. */
int veil_refuse_huge_pages(void);

/* C's standard output line-buffered (setvbuf _IOLBF), and flushed: Swift's
   print goes through it, and cannot name `stdout` (a C global) safely. */
void veil_stdout_line_buffered(void);
void veil_stdout_flush(void);

#endif
