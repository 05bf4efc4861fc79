/* Nettle (SHA-256) and glibc malloc tuning: system facilities VeilKit/System binds. */
#include <malloc.h>
#include <nettle/sha2.h>
