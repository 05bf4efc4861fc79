// A fixed-argument layer over libmicrohttpd for Swift: MHD_start_daemon is
// variadic, and the request life cycle (buffer the body up to a limit, suspend
// while the handler works on another thread, resume with the response) is
// easier to get right once, in C, than through callbacks into Swift.
#ifndef VEIL_HTTPD_H
#define VEIL_HTTPD_H

#include <stddef.h>
#include <stdint.h>

typedef struct veil_httpd veil_httpd;
typedef struct veil_httpd_request veil_httpd_request;

/* Called on the daemon's thread once a request's body is complete (or the
   request was refused: then `refused_status` is 413 and the body is empty).
   The handler must eventually call veil_httpd_respond exactly once, from any
   thread; the connection is suspended meanwhile. */
typedef void (*veil_httpd_handler)(void *context, veil_httpd_request *request);

/* Starts listening on host:port (IPv4 or IPv6 literal; port 0 picks a free
   one). Bodies longer than max_body are refused with 413: at once when the
   Content-Length says so, otherwise as soon as they grow past it. Returns
   NULL with a message in `error` on failure. */
veil_httpd *veil_httpd_start(const char *host, uint16_t port, size_t max_body,
                             unsigned connection_limit, unsigned idle_timeout_seconds,
                             veil_httpd_handler handler, void *context,
                             char *error, size_t error_length);
uint16_t veil_httpd_port(veil_httpd *daemon);
/* Stops accepting connections; those open are still served. */
void veil_httpd_quiesce(veil_httpd *daemon);
/* Stops listening and closes every connection. */
/* Connections open now (answers still being sent count). */
unsigned veil_httpd_connections(veil_httpd *daemon);
void veil_httpd_stop(veil_httpd *daemon);

const char *veil_httpd_method(veil_httpd_request *request);
const char *veil_httpd_path(veil_httpd_request *request);
/* 0, or 413 when the body was over the limit (the body is then empty). */
unsigned veil_httpd_refused(veil_httpd_request *request);
/* Hands the body over to the caller, who frees it with veil_httpd_free:
   no copy is made. NULL when there is none. */
uint8_t *veil_httpd_take_body(veil_httpd_request *request, size_t *length);
/* Header (kind 0) or query (kind 1) pairs as "name\0value\0..." in a malloc'ed
   buffer the caller frees with veil_httpd_free; returns its length. Only valid
   inside the handler call. */
size_t veil_httpd_pairs(veil_httpd_request *request, int kind, char **out);
void veil_httpd_free(void *pointer);

/* Sends the response (body copied) and resumes the connection. `headers` is
   "Name: value\n" lines, or NULL. Thread-safe. */
void veil_httpd_respond(veil_httpd_request *request, unsigned status,
                        const char *content_type, const void *body, size_t length,
                        const char *headers);

#endif
