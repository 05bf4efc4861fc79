#include <stdio.h>
#include "veil_system.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#if defined(__has_include) && __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h> /* glibc 2.33+ */
#define VEIL_GLIBC_X86 1
#endif
#endif

static int signal_write_end = -1;

static void on_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    if (write(signal_write_end, &byte, 1) < 0) { /* nothing to do in a handler */ }
    errno = saved;
}

int veil_signal_pipe(void) {
    int ends[2];
    if (pipe(ends) != 0) return -1;
    fcntl(ends[1], F_SETFL, O_NONBLOCK);
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    signal_write_end = ends[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    return ends[0];
}

unsigned veil_cpu_features(void) {
    unsigned features = 0;
#if defined(__x86_64__) || defined(__i386__)
    /* CPUID's bits, asked now, each where the OS saves the registers it uses. */
    unsigned a, b, c, d, b7 = 0, c7 = 0, a71 = 0;
#if defined(VEIL_GLIBC_X86)
    /* Where the OS saves them: glibc's "active" features. glibc read CPUID once, in ld.so,
     * before any library's constructor; ONNX Runtime reads it again when it loads. Where the
     * two disagree (CPUID faulting, as bench/cpu-mask masks it: glibc's tunables hide AVX-512
     * from glibc, nothing hides AVX-VNNI), a feature counts only if CPUID, asked now, still
     * reports it: the kernels ONNX Runtime picks. */
    int avx2 = CPU_FEATURE_ACTIVE(AVX2), avx512f = CPU_FEATURE_ACTIVE(AVX512F);
    int avx512vnni = CPU_FEATURE_ACTIVE(AVX512_VNNI), avxvnni = CPU_FEATURE_ACTIVE(AVX_VNNI);
#else
    /* Where the OS saves them: XCR0's YMM and ZMM state. */
    unsigned xcr0 = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0; /* no OSXSAVE: no AVX state */
    __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(d) : "c"(0));
    int ymm = (xcr0 & 0x6) == 0x6, zmm = ymm && (xcr0 & 0xe0) == 0xe0;
    int avx2 = ymm, avx512f = zmm, avx512vnni = zmm, avxvnni = ymm;
#endif
    if (__get_cpuid_count(7, 0, &a, &b7, &c7, &d) && a >= 1) __get_cpuid_count(7, 1, &a71, &b, &c, &d);
    if (avx2 && (b7 & (1u << 5))) features |= VEIL_CPU_AVX2;
    if (avx512f && (b7 & (1u << 16))) features |= VEIL_CPU_AVX512F;
    if (avx512vnni && (c7 & (1u << 11))) features |= VEIL_CPU_AVX512_VNNI;
    if (avxvnni && (a71 & (1u << 4))) features |= VEIL_CPU_AVX_VNNI;
#endif
    return features;
}

int veil_refuse_huge_pages(void) {
#ifdef PR_SET_THP_DISABLE
    return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0 ? 0 : -1;
#else
    return -1;
#endif
}

void veil_stdout_line_buffered(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

void veil_stdout_flush(void) { fflush(stdout); }
