/* GLib (its checksums) and glibc malloc tuning: system facilities VeilKit/System binds. */
#include <glib.h>
#include <malloc.h>
