/* bench/cpu-mask/avx2.c — an LD_PRELOAD library that makes CPUID report an AVX2 CPU without
 * AVX-512, VNNI (AVX-512 or AVX) or AMX, so that code choosing kernels from CPUID at run time
 * (ONNX Runtime's MLAS, numpy, OpenBLAS, libgcc's __builtin_cpu_supports, ...) takes the path
 * an AMD EPYC Zen 2/3 would take, natively, on this AVX-512 machine.
 *
 *   gcc -O2 -shared -fPIC -o libveil-avx2-mask.so avx2.c     (bench_cpu_mask_avx2 in bench/lib.sh)
 *   LD_PRELOAD=$PWD/libveil-avx2-mask.so COMMAND...
 *   VEIL_CPU_MASK_VERBOSE=1   one line on stderr at load, and the count of CPUIDs emulated at exit
 *   VEIL_CPU_MASK_LEVEL=avx2-vnni | avx512   hide less (see set_level); the default is avx2
 *
 * How: the constructor turns on CPUID faulting for the thread (arch_prctl(ARCH_SET_CPUID, 0);
 * Linux 4.12+, Intel Ivy Bridge+ or a KVM guest that offers it: "cpuid_fault" in /proc/cpuinfo),
 * so every CPUID raises SIGSEGV (si_code SI_KERNEL, RIP at 0F A2). The handler turns faulting
 * off, runs the real CPUID with the saved EAX/ECX, turns it back on, clears the feature bits
 * below and writes EAX..EDX into the interrupted context, RIP + 2. The faulting state is per
 * thread, inherited by clone/fork (so threads made later are masked) and cleared by execve;
 * LD_PRELOAD stays in the environment, so children load this again and are masked too.
 *
 * Other SIGSEGVs: a program may install its own SIGSEGV handler later (Python's faulthandler,
 * pytest, the JVM, crash reporters). sigaction/signal are interposed for SIGSEGV so ours stays
 * the kernel's handler: the program's handler is recorded (and reported back by sigaction) and
 * called for every SIGSEGV that is not a CPUID fault; with none (SIG_DFL/SIG_IGN), the default
 * action is restored and the fault repeats, so real segfaults still crash (and dump core) as
 * before. sigprocmask/pthread_sigmask (and the sa_mask of other signals' handlers) are made to
 * never block SIGSEGV: a CPUID fault in a thread that blocks it would otherwise kill the
 * process (the kernel forces synchronous signals); only a kill -SEGV is no longer deferred.
 * Code that calls rt_sigaction/rt_sigprocmask as raw system calls (Go's runtime; statically
 * linked programs ignore LD_PRELOAD anyway) bypasses this: a SIGSEGV handler installed that way
 * replaces ours, and the next CPUID in that process dies of SIGSEGV (check rawsig shows it).
 *
 * Not masked: what ld.so decided before this constructor ran (glibc's IFUNCs: memcpy, strlen...
 * stay AVX-512/EVEX unless GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,... is set, as
 * bench/cpu-mask/run does; <sys/platform/x86.h>'s CPU_FEATURE_ACTIVE, which Veil's CPUKind reads;
 * its 8-bit weights follow a probe of ONNX Runtime's kernels instead), /proc/cpuinfo and lscpu, XGETBV (XCR0 still enables ZMM
 * and AMX state; no code uses them without the CPUID bit). Each CPUID costs about 8 us instead
 * of 1 (this KVM guest); programs run a few dozen to a few hundred.
 */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef ARCH_GET_CPUID
#define ARCH_GET_CPUID 0x1011
#endif
#ifndef ARCH_SET_CPUID
#define ARCH_SET_CPUID 0x1012
#endif

#define BIT(n) (1u << (n))

/* What the default level (VEIL_CPU_MASK_LEVEL unset or "avx2") hides. Leaf 7 subleaf 0: */
static uint32_t l7_0_ebx = BIT(16) /* avx512f */ | BIT(17) /* avx512dq */ | BIT(21) /* avx512ifma */ |
                           BIT(26) /* avx512pf */ | BIT(27) /* avx512er */ | BIT(28) /* avx512cd */ |
                           BIT(30) /* avx512bw */ | BIT(31) /* avx512vl */;
static uint32_t l7_0_ecx = BIT(1) /* avx512vbmi */ | BIT(6) /* avx512vbmi2 */ | BIT(11) /* avx512vnni */ |
                           BIT(12) /* avx512bitalg */ | BIT(14) /* avx512vpopcntdq */;
                           /* kept: gfni (8), vaes (9), vpclmulqdq (10): Zen 3 has them at 256 bits */
static uint32_t l7_0_edx = BIT(2) /* avx512_4vnniw */ | BIT(3) /* avx512_4fmaps */ |
                           BIT(8) /* avx512_vp2intersect */ | BIT(22) /* amx_bf16 */ |
                           BIT(23) /* avx512_fp16 */ | BIT(24) /* amx_tile */ | BIT(25) /* amx_int8 */;
/* Leaf 7 subleaf 1. */
static uint32_t l7_1_eax = BIT(4) /* avx_vnni */ | BIT(5) /* avx512_bf16 */ | BIT(21) /* amx_fp16 */ |
                           BIT(23) /* avx_ifma */;
static uint32_t l7_1_edx = BIT(4) /* avx_vnni_int8 */ | BIT(5) /* avx_ne_convert */ | BIT(8) /* amx_complex */ |
                           BIT(10) /* avx_vnni_int16 */ | BIT(19) /* avx10 (its version is leaf 0x24) */;
/* Leaf 0xD subleaf 0 EAX: the XCR0 bits the CPU supports: opmask, ZMM_Hi256, Hi16_ZMM, XTILECFG,
 * XTILEDATA. (XGETBV still shows them enabled in XCR0; code checks CPUID first.) */
static uint32_t ld_0_eax = BIT(5) | BIT(6) | BIT(7) | BIT(17) | BIT(18);

static const char *level_line = "CPUID reports AVX2 without AVX-512/VNNI/AMX";

/* VEIL_CPU_MASK_LEVEL: "avx2" (the default, above: an AMD Zen 2/3), "avx2-vnni" (AVX2 and
 * AVX-VNNI, like Intel Alder Lake), "avx512" (AVX-512 with VNNI and BF16 but no AMX, AVX-VNNI,
 * AVX512-FP16 or VP2INTERSECT, like AMD Zen 4). */
static int set_level(const char *level) {
    if (!level || !*level || !strcmp(level, "avx2")) return 0;
    if (!strcmp(level, "avx2-vnni")) {
        l7_1_eax &= ~BIT(4);
        level_line = "CPUID reports AVX2 and AVX-VNNI without AVX-512/AMX";
        return 0;
    }
    if (!strcmp(level, "avx512")) {
        l7_0_ebx = 0;
        l7_0_ecx = 0;
        l7_0_edx = BIT(8) | BIT(22) | BIT(23) | BIT(24) | BIT(25); /* vp2intersect, amx_bf16, avx512_fp16, amx_tile, amx_int8 */
        l7_1_eax = BIT(4) | BIT(21) | BIT(23);                    /* avx_vnni, amx_fp16, avx_ifma */
        l7_1_edx = BIT(4) | BIT(5) | BIT(8) | BIT(10) | BIT(19);  /* avx_vnni_int8/int16, avx_ne_convert, amx_complex, avx10 */
        ld_0_eax = BIT(17) | BIT(18);                             /* XTILECFG, XTILEDATA */
        level_line = "CPUID reports AVX-512 VNNI without AMX/AVX512-FP16";
        return 0;
    }
    return -1;
}

static void mask(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d) {
    if (leaf == 7 && sub == 0) {
        *b &= ~l7_0_ebx; *c &= ~l7_0_ecx; *d &= ~l7_0_edx;
    } else if (leaf == 7 && sub == 1) {
        *a &= ~l7_1_eax; *d &= ~l7_1_edx;
    } else if (leaf == 0xd && sub == 0) {
        *a &= ~ld_0_eax;
    } else if (leaf == 0x1d || leaf == 0x1e || leaf == 0x24) {  /* AMX tile/TMUL info, AVX10 */
        *a = *b = *c = *d = 0;
    }
}

/* Why CPUID is not masked: said by the first process of a tree (and whenever verbose), not
 * again by each of its children. */
static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static long set_cpuid(int enabled) { return syscall(SYS_arch_prctl, ARCH_SET_CPUID, enabled); }

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);
static sigaction_fn real_sigaction;
static sigmask_fn real_sigprocmask, real_pthread_sigmask;

static atomic_bool installed;            /* our SIGSEGV handler is in place and faulting is on */
static atomic_ulong emulated;            /* CPUIDs emulated (VEIL_CPU_MASK_VERBOSE=1 reports it) */
static int verbose;

/* The program's own SIGSEGV disposition, as it last set it: a few slots, the current one
 * published with an atomic pointer, so the handler never sees one half written. */
static struct sigaction app_slots[8];
static _Atomic(struct sigaction *) app_action;
static atomic_uint app_next;

static void set_app_action(const struct sigaction *sa) {
    struct sigaction *slot = &app_slots[atomic_fetch_add(&app_next, 1) % 8];
    *slot = *sa;
    atomic_store(&app_action, slot);
}

static void resolve(void) {
    if (!real_sigaction) real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
    if (!real_sigprocmask) real_sigprocmask = (sigmask_fn)dlsym(RTLD_NEXT, "sigprocmask");
    if (!real_pthread_sigmask) real_pthread_sigmask = (sigmask_fn)dlsym(RTLD_NEXT, "pthread_sigmask");
}

/* Not a CPUID fault: what the program asked for, or the default action. */
static void forward(int sig, siginfo_t *si, void *ctx) {
    struct sigaction app = *atomic_load(&app_action);
    int own = (app.sa_flags & SA_SIGINFO) ? app.sa_sigaction != NULL
                                          : app.sa_handler != SIG_DFL && app.sa_handler != SIG_IGN;
    if (own) {
        sigset_t m = app.sa_mask;
        sigdelset(&m, SIGSEGV);  /* never blocked: see the top of the file */
        real_pthread_sigmask(SIG_BLOCK, &m, NULL);
        if (app.sa_flags & SA_RESETHAND) {
            struct sigaction dfl;
            memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            set_app_action(&dfl);
        }
        if (app.sa_flags & SA_SIGINFO) app.sa_sigaction(sig, si, ctx);
        else app.sa_handler(sig);
        return;  /* sigreturn restores the signal mask */
    }
    if (si->si_code <= 0 && !(app.sa_flags & SA_SIGINFO) && app.sa_handler == SIG_IGN)
        return;  /* kill -SEGV while the program ignores it */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    real_sigaction(SIGSEGV, &dfl, NULL);
    atomic_store(&installed, 0);
    if (si->si_code <= 0) raise(sig);  /* sent by kill/raise: send it again, now fatal */
    /* otherwise the faulting instruction runs again and faults, with the default action */
}

static void handler(int sig, siginfo_t *si, void *vctx) {
    ucontext_t *uc = vctx;
    greg_t *g = uc->uc_mcontext.gregs;
    /* A #GP is SI_KERNEL, and RIP was fetched, so it can be read; page faults (RIP unmapped
     * included) are SEGV_MAPERR/SEGV_ACCERR and never get here. */
    if (si->si_code == SI_KERNEL) {
        const unsigned char *ip = (const unsigned char *)g[REG_RIP];
        if (ip[0] == 0x0f && ip[1] == 0xa2) {
            int saved_errno = errno;
            uint32_t leaf = (uint32_t)g[REG_RAX], sub = (uint32_t)g[REG_RCX], a, b, c, d;
            set_cpuid(1);
            __cpuid_count(leaf, sub, a, b, c, d);
            set_cpuid(0);
            mask(leaf, sub, &a, &b, &c, &d);
            g[REG_RAX] = a; g[REG_RBX] = b; g[REG_RCX] = c; g[REG_RDX] = d;  /* zero-extended */
            g[REG_RIP] += 2;
            atomic_fetch_add_explicit(&emulated, 1, memory_order_relaxed);
            errno = saved_errno;
            return;
        }
    }
    forward(sig, si, vctx);
}

static void warn(const char *fmt, ...) {
    if (!verbose && getenv("VEIL_CPU_MASK_WARNED")) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("cpu-mask: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    setenv("VEIL_CPU_MASK_WARNED", "1", 1);  /* the constructor runs before any thread starts */
}

__attribute__((constructor(101))) static void init(void) {
    const char *v = getenv("VEIL_CPU_MASK_VERBOSE");
    verbose = v && *v && strcmp(v, "0") != 0;
    const char *level = getenv("VEIL_CPU_MASK_LEVEL");
    if (set_level(level) != 0)
        fprintf(stderr, "cpu-mask: VEIL_CPU_MASK_LEVEL=%s is not avx2, avx2-vnni or avx512; using avx2\n", level);
    resolve();
    if (!real_sigaction || !real_sigprocmask || !real_pthread_sigmask) {
        warn("cannot find sigaction in libc; CPUID is NOT masked\n");
        return;
    }
    uint32_t a, b, c, d;
    __cpuid_count(7, 0, a, b, c, d);
    int had_avx512 = (b & BIT(16)) != 0;

    struct sigaction old, sa;
    real_sigaction(SIGSEGV, NULL, &old);
    set_app_action(&old);

    /* An alternate stack for the main thread (if it has none), so that a stack overflow still
     * reaches the program's handler as it would without us. Threads use their own stack. */
    stack_t ss;
    if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_DISABLE)) {
        size_t size = 256 * 1024;
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            ss.ss_sp = p; ss.ss_size = size; ss.ss_flags = 0;
            sigaltstack(&ss, NULL);
        }
    }

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    /* SA_NODEFER: a CPUID inside a signal handler (a crash reporter's, say) must not find
     * SIGSEGV blocked, or the kernel kills the process. */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (real_sigaction(SIGSEGV, &sa, NULL) != 0) {
        warn("sigaction(SIGSEGV): %s; CPUID is NOT masked\n", strerror(errno));
        return;
    }
    sigset_t segv;
    sigemptyset(&segv);
    sigaddset(&segv, SIGSEGV);
    real_pthread_sigmask(SIG_UNBLOCK, &segv, NULL);
    atomic_store(&installed, 1);

    if (set_cpuid(0) != 0) {
        int e = errno;
        atomic_store(&installed, 0);
        real_sigaction(SIGSEGV, &old, NULL);
        warn("arch_prctl(ARCH_SET_CPUID, 0): %s (is cpuid_fault in /proc/cpuinfo?); "
                        "CPUID is NOT masked\n", strerror(e));
        return;
    }
    __cpuid_count(7, 0, a, b, c, d);  /* through the handler now */
    if (atomic_load(&emulated) == 0 || (b & l7_0_ebx)) {
        atomic_store(&installed, 0);
        set_cpuid(1);
        real_sigaction(SIGSEGV, &old, NULL);
        warn("CPUID did not fault after arch_prctl(ARCH_SET_CPUID, 0); CPUID is NOT masked\n");
        return;
    }
    if (verbose)
        fprintf(stderr, "cpu-mask: %s%s\n", level_line,
                l7_0_ebx && !had_avx512 ? " (this CPU had no AVX-512 to hide)" : "");
    atomic_store(&emulated, 0);  /* count the program's CPUIDs, not that check */
}

__attribute__((destructor)) static void fini(void) {
    if (verbose && atomic_load(&installed))
        fprintf(stderr, "cpu-mask: %lu CPUID instructions emulated in pid %d\n",
                (unsigned long)atomic_load(&emulated), (int)getpid());
}

/* ---- SIGSEGV stays ours: the program's handler is recorded and called from ours ---- */

int sigaction(int sig, const struct sigaction *act, struct sigaction *oact) {
    resolve();
    if (!atomic_load(&installed)) return real_sigaction(sig, act, oact);
    if (sig != SIGSEGV) {
        /* A handler that blocks SIGSEGV while it runs would be killed by a CPUID in it. */
        if (!act || !sigismember(&act->sa_mask, SIGSEGV)) return real_sigaction(sig, act, oact);
        struct sigaction copy = *act;
        sigdelset(&copy.sa_mask, SIGSEGV);
        return real_sigaction(sig, &copy, oact);
    }
    struct sigaction prev = *atomic_load(&app_action);
    if (act) set_app_action(act);
    if (oact) *oact = prev;
    return 0;
}

int __sigaction(int sig, const struct sigaction *act, struct sigaction *oact) {
    return sigaction(sig, act, oact);
}

static sighandler_t set_handler(int sig, sighandler_t h, int flags) {
    struct sigaction sa, old;
    if (h == SIG_ERR || sig <= 0 || sig >= NSIG) { errno = EINVAL; return SIG_ERR; }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, sig);
    if (sigaction(sig, &sa, &old) != 0) return SIG_ERR;
    return old.sa_handler;
}

sighandler_t signal(int sig, sighandler_t h) { return set_handler(sig, h, SA_RESTART); }
sighandler_t bsd_signal(int sig, sighandler_t h) { return set_handler(sig, h, SA_RESTART); }
sighandler_t sysv_signal(int sig, sighandler_t h) { return set_handler(sig, h, SA_RESETHAND | SA_NODEFER); }
sighandler_t __sysv_signal(int sig, sighandler_t h) { return set_handler(sig, h, SA_RESETHAND | SA_NODEFER); }

static const sigset_t *without_segv(int how, const sigset_t *set, sigset_t *copy) {
    if (!set || how == SIG_UNBLOCK || !atomic_load(&installed) || !sigismember(set, SIGSEGV)) return set;
    *copy = *set;
    sigdelset(copy, SIGSEGV);
    return copy;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    sigset_t copy;
    resolve();
    return real_sigprocmask(how, without_segv(how, set, &copy), old);
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
    sigset_t copy;
    resolve();
    return real_pthread_sigmask(how, without_segv(how, set, &copy), old);
}
