#include "veil_system.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
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

void veil_cpuid(unsigned leaf, unsigned subleaf, unsigned registers[4]) {
    registers[0] = registers[1] = registers[2] = registers[3] = 0;
#if defined(__x86_64__) || defined(__i386__)
    __get_cpuid_count(leaf, subleaf, &registers[0], &registers[1], &registers[2], &registers[3]);
#else
    (void)leaf; (void)subleaf;
#endif
}
