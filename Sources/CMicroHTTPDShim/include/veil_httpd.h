// A fixed-argument layer over libmicrohttpd for Swift: MHD_start_daemon is
// variadic, and the request life cycle (buffer the body up to a limit and a
// shared budget, suspend while the handler works on another thread, resume
// with the response exactly once, stop without leaving a connection
// suspended) is easier to get right once, in C, than through callbacks into Swift.
#ifndef VEIL_HTTPD_H
#define VEIL_HTTPD_H

#include <stddef.h>
#include <stdint.h>

typedef struct veil_httpd veil_httpd;
typedef struct veil_httpd_request veil_httpd_request;

/* Called on a daemon thread once a request's body is complete (or the request
   was refused: then veil_httpd_refused says why and the body is empty). The
   handler must call veil_httpd_respond exactly once, from any thread,
   possibly before it returns (a quick answer is then sent without suspending
   the connection). If the daemon stopped first, that call only frees. */
typedef void (*veil_httpd_handler)(void *context, veil_httpd_request *request);

/* What the daemon is given; every limit is in force from the first byte. */
typedef struct veil_httpd_limits {
    /* A body longer than this is refused with 413 (from Content-Length, or as
       soon as it grows past it). */
    size_t max_body;
    /* Bodies held by requests in flight, in total: past it, 503 (a declared
       length is reserved whole before a byte is read). */
    size_t body_budget;
    /* Connections open at once (the listener stops accepting past it). */
    unsigned connection_limit;
    /* Connections from one address (0: no limit). */
    unsigned per_ip_limit;
    /* Seconds without a byte before a connection is closed. */
    unsigned idle_timeout;
    /* Seconds a request may take to send its headers (from its connection or
       the end of its previous request), and then its body. */
    unsigned header_timeout, body_timeout;
    /* Connections still sending their headers at once: past it, the oldest
       of them is closed, so slow clients cannot hold every place. */
    unsigned max_unheadered;
    /* Polling threads (1: one epoll thread; more: a pool, one epoll each). */
    unsigned threads;
} veil_httpd_limits;

/* Starts listening on host:port (IPv4 or IPv6 literal; port 0 picks a free
   one). Returns NULL with a message in `error` on failure. */
veil_httpd *veil_httpd_start(const char *host, uint16_t port, veil_httpd_limits limits,
                             veil_httpd_handler handler, void *context,
                             char *error, size_t error_length);
uint16_t veil_httpd_port(veil_httpd *daemon);
/* Stops accepting connections; those open are still served. */
void veil_httpd_quiesce(veil_httpd *daemon);
/* Connections open now (answers still being sent count). */
unsigned veil_httpd_connections(veil_httpd *daemon);
/* Answers every request still waiting for its handler with 503, lets those
   answers go (bounded), then closes every connection and frees the daemon.
   Handlers that answer later are ignored harmlessly. */
void veil_httpd_stop(veil_httpd *daemon);

/* Counters since the start: connections closed for sending their headers or
   body too slowly, or evicted as the oldest unfinished; requests refused by
   the body budget; bytes of bodies held now; requests waiting for their
   handler's answer now. */
typedef struct veil_httpd_stats {
    uint64_t slow_closed, evicted, over_budget;
    uint64_t body_bytes, awaiting;
} veil_httpd_stats;
veil_httpd_stats veil_httpd_get_stats(veil_httpd *daemon);

const char *veil_httpd_method(veil_httpd_request *request);
const char *veil_httpd_path(veil_httpd_request *request);
/* 0; 413 when the body was over max_body; 503 when the body budget was spent
   (the body is then empty). */
unsigned veil_httpd_refused(veil_httpd_request *request);
/* Hands the body over to the caller, who frees it with veil_httpd_free:
   no copy is made. NULL when there is none. */
uint8_t *veil_httpd_take_body(veil_httpd_request *request, size_t *length);
/* Header (kind 0) or query (kind 1) pairs as "name\0value\0..." in a malloc'ed
   buffer the caller frees with veil_httpd_free; returns its length. Only valid
   inside the handler call. */
size_t veil_httpd_pairs(veil_httpd_request *request, int kind, char **out);
void veil_httpd_free(void *pointer);

/* The largest total of extra header lines veil_httpd_respond sends: the
   answer's headers must fit libmicrohttpd's per-connection memory beside the
   request's, or it would close the connection without a word. Longer: 500. */
#define VEIL_HTTPD_MAX_EXTRA_HEADERS 16384

/* Sends the response (body copied) and resumes the connection, unless
   veil_httpd_stop answered first; either way the request is released.
   `headers` is "Name: value\n" lines, or NULL. Thread-safe. */
void veil_httpd_respond(veil_httpd_request *request, unsigned status,
                        const char *content_type, const void *body, size_t length,
                        const char *headers);

#endif
