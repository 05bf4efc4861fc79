#ifndef VEIL_SYSTEM_H
#define VEIL_SYSTEM_H

/* SIGINT and SIGTERM caught process-wide (sigaction, SA_RESTART) and written,
   one byte each (the signal number), to a pipe whose read end is returned
   (-1 on failure). A handler for the whole process sees a signal whatever
   thread it lands on (ONNX Runtime's threads included), where a dispatch
   source may lose it. Call once per process. */
int veil_signal_pipe(void);

/* The CPU's answer to CPUID leaf `leaf`, subleaf `subleaf` (EAX, EBX, ECX,
   EDX), zeros past its highest leaf or off x86: what ONNX Runtime reads to
   choose its kernels, so Veil's choices follow the same answer. */
void veil_cpuid(unsigned leaf, unsigned subleaf, unsigned registers[4]);

#endif
