/* bench/cpu-mask/check.c — what a program sees of the CPU, with or without the avx2 mask.
 *
 *   gcc -O2 -o check check.c
 *   ./check                    libgcc's __builtin_cpu_supports, CPUID itself and glibc's view, a line each
 *   ./check time [N]           the cost of one CPUID (N of them, default 100000)
 *   ./check threads            CPUID leaf 7 from a new thread (faulting is inherited by clone)
 *   ./check fork               ... from a forked child, and from an exec'd child (this program again)
 *   ./check segv               a real NULL dereference: must still die of SIGSEGV
 *   ./check block              CPUID in a thread that blocks every signal (pthread_sigmask)
 *   ./check handler            CPUID in a SIGUSR1 handler whose sa_mask blocks every signal
 *   ./check rawsig             SIGSEGV set to SIG_DFL by a raw rt_sigaction system call (as Go's
 *                              runtime does), then CPUID: the known limitation, dies of SIGSEGV
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/platform/x86.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void leaf7(const char *who) {
    unsigned a, b, c, d, a1, b1, c1, d1, ad, bd, cd, dd;
    __cpuid_count(7, 0, a, b, c, d);
    __cpuid_count(7, 1, a1, b1, c1, d1);
    __cpuid_count(0xd, 0, ad, bd, cd, dd);
    unsigned l1a, l1b, l1c, l1d;
    __cpuid(1, l1a, l1b, l1c, l1d);
    printf("%-8s cpuid: avx2 %u avx512f %u avx512bw %u avx512vl %u avx512vnni %u avx512_fp16 %u amx_int8 %u "
           "avx_vnni %u avx512_bf16 %u fma %u gfni %u vaes %u xcr0-supported 0x%x\n",
           who, (b >> 5) & 1, (b >> 16) & 1, (b >> 30) & 1, (b >> 31) & 1, (c >> 11) & 1, (d >> 23) & 1,
           (d >> 25) & 1, (a1 >> 4) & 1, (a1 >> 5) & 1, (l1c >> 12) & 1, (c >> 8) & 1, (c >> 9) & 1, ad);
}

static void *thread_main(void *arg) {
    if (arg) {  /* block everything, as some thread pools do */
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, NULL);
    }
    leaf7(arg ? "blocked" : "thread");
    return NULL;
}

static void on_usr1(int sig) { (void)sig; leaf7("handler"); }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "show";
    if (!strcmp(what, "show")) {
        __builtin_cpu_init();
        printf("builtin  avx2 %d avx512f %d avx512bw %d avx512vnni %d avxvnni %d fma %d\n",
               !!__builtin_cpu_supports("avx2"), !!__builtin_cpu_supports("avx512f"),
               !!__builtin_cpu_supports("avx512bw"), !!__builtin_cpu_supports("avx512vnni"),
               !!__builtin_cpu_supports("avxvnni"), !!__builtin_cpu_supports("fma"));
        leaf7("main");
        /* glibc's own view, taken by ld.so at startup (before any constructor): it chose the
         * string functions (IFUNCs) from it. memcpy's offset in libc tells which one. */
        void *mc = dlsym(RTLD_DEFAULT, "memcpy");
        Dl_info di;
        dladdr(mc, &di);
        printf("glibc    avx512f %d avx512vl %d avx2 %d (ld.so's cpu_features)  memcpy = libc+0x%lx\n",
               CPU_FEATURE_ACTIVE(AVX512F), CPU_FEATURE_ACTIVE(AVX512VL), CPU_FEATURE_ACTIVE(AVX2),
               (unsigned long)((char *)mc - (char *)di.dli_fbase));
    } else if (!strcmp(what, "time")) {
        long n = argc > 2 ? atol(argv[2]) : 100000;
        unsigned a = 0, b = 0, c = 0, d = 0, sum = 0;
        double t0 = now();
        for (long i = 0; i < n; i++) { __cpuid_count(7, 0, a, b, c, d); sum += b; }
        double t = now() - t0;
        printf("%ld x cpuid(7,0): %.3f s, %.2f us each (avx512f %s)\n", n, t, t / n * 1e6,
               (b >> 16) & 1 ? "visible" : "masked");
        (void)sum;
    } else if (!strcmp(what, "threads") || !strcmp(what, "block")) {
        pthread_t t;
        pthread_create(&t, NULL, thread_main, !strcmp(what, "block") ? (void *)1 : NULL);
        pthread_join(t, NULL);
        printf("%s: survived\n", what);
    } else if (!strcmp(what, "fork")) {
        pid_t p = fork();
        if (p == 0) { leaf7("fork"); fflush(stdout); _exit(0); }
        waitpid(p, NULL, 0);
        p = fork();
        if (p == 0) { execl("/proc/self/exe", argv[0], "show", (char *)NULL); _exit(127); }
        waitpid(p, NULL, 0);
    } else if (!strcmp(what, "handler")) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_usr1;
        sigfillset(&sa.sa_mask);
        sigaction(SIGUSR1, &sa, NULL);
        raise(SIGUSR1);
        printf("handler: survived\n");
    } else if (!strcmp(what, "rawsig")) {
        struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } k = { SIG_DFL, 0, NULL, 0 };
        syscall(SYS_rt_sigaction, SIGSEGV, &k, NULL, 8);
        fflush(stdout);
        leaf7("rawsig");
        printf("rawsig: survived\n");
    } else if (!strcmp(what, "segv")) {
        fflush(stdout);
        volatile int *p = NULL;
        return *p;
    }
    return 0;
}
