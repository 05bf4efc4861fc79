// A fixed-argument layer over libmicrohttpd for Swift: MHD_start_daemon and
// MHD_get_*_info are variadic. The daemon's four callbacks are forwarded,
// unchanged, to Swift (HTTPTransport in Sources/VeilServe), which holds every
// policy: connection phases and slow-sender timeouts, the body limit and the
// shared budget, suspending and resuming. Swift calls libmicrohttpd's other,
// fixed-argument functions (suspend, resume, responses) itself.
#ifndef VEIL_HTTPD_H
#define VEIL_HTTPD_H

#include <stddef.h>
#include <stdint.h>

struct MHD_Connection;
typedef struct veil_httpd veil_httpd;

/* The daemon's callbacks, with the daemon's own arguments. */
typedef struct veil_httpd_callbacks {
    void *context;
    /* A connection opened (fd -1 if unknown): returns its context, passed to
       `access` and, at the end, to `closed`. */
    void *(*opened)(void *context, int fd);
    void (*closed)(void *context, void *connection_context);
    /* MHD_AccessHandlerCallback: returns MHD_YES (1) or MHD_NO (0). */
    int (*access)(void *context, struct MHD_Connection *connection, void *connection_context,
                  const char *url, const char *method, const char *upload_data,
                  size_t *upload_data_size, void **request_context);
    /* MHD_RequestCompletedCallback: the request's context, never NULL. */
    void (*completed)(void *context, void *request_context);
} veil_httpd_callbacks;

/* What the daemon itself enforces. */
typedef struct veil_httpd_options {
    unsigned connection_limit;  /* connections open at once */
    unsigned per_ip_limit;      /* from one address (0: none) */
    unsigned idle_timeout;      /* seconds without a byte */
    unsigned threads;           /* polling threads (1: one epoll thread; more: a pool) */
} veil_httpd_options;

/* Why veil_httpd_start failed (Swift words it: HTTPServer). */
enum { VEIL_HTTPD_BAD_ADDRESS = 1, VEIL_HTTPD_NO_MEMORY = 2, VEIL_HTTPD_CANNOT_LISTEN = 3 };
/* Listens on host:port (IPv4 or IPv6 literal; port 0 picks a free one).
   NULL and VEIL_HTTPD_* in `failure` on failure. */
veil_httpd *veil_httpd_start(const char *host, uint16_t port, veil_httpd_options options,
                             veil_httpd_callbacks callbacks, int *failure);
uint16_t veil_httpd_port(veil_httpd *daemon);
/* Stops accepting connections; those open are still served. */
void veil_httpd_quiesce(veil_httpd *daemon);
/* MHD_stop_daemon, then frees: no connection may be suspended. */
void veil_httpd_stop(veil_httpd *daemon);

/* The largest total of extra header lines an answer carries: its headers must
   fit libmicrohttpd's per-connection memory beside the request's (see the
   memory limit in veil_httpd_start), or it would close without a word. */
#define VEIL_HTTPD_MAX_EXTRA_HEADERS 16384

#endif
