#include "veil_httpd.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <microhttpd.h>

/* One lock for the shim's bookkeeping (connection phases, the requests
   waiting for their handler, the body budget): it is held only for list and
   counter updates, never while libmicrohttpd is called from a thread other
   than the daemon's, so it cannot deadlock with the daemon's own locks. */
static pthread_mutex_t shim_lock = PTHREAD_MUTEX_INITIALIZER;

/* Where a connection is: sending its headers (or idle between requests),
   sending its body, or waiting for / receiving its answer. */
enum phase { HEADERS, BODY, WORKING };

/* One per connection (libmicrohttpd's socket context), so that slow senders
   can be found and closed: shutdown() makes the daemon read EOF and close. */
struct tracked {
    struct tracked *prev, *next;
    int fd;
    enum phase phase;
    double since;
    int shut;
};

enum answer { DISPATCHING, SUSPENDED, ANSWERED };

struct veil_httpd {
    struct MHD_Daemon *daemon;
    veil_httpd_limits limits;
    veil_httpd_handler handler;
    void *context;
    struct tracked *connections;
    unsigned unheadered;
    struct veil_httpd_request *waiting;
    veil_httpd_stats stats;
    pthread_t reaper;
    int reaper_started, stopping;
    pthread_cond_t wake;
};

struct veil_httpd_request {
    struct veil_httpd *server;
    struct MHD_Connection *connection;
    struct tracked *tracked;
    char *method;
    char *path;
    uint8_t *body;
    size_t length, capacity, reserved, discarded;
    unsigned refused;
    int dispatched;
    /* Guarded by shim_lock: */
    int refs;             /* the daemon's, and the handler's until it responds */
    enum answer answer;
    int closed;           /* the daemon is done with the request */
    int listed;           /* in server->waiting */
    struct veil_httpd_request *prev, *next;
    struct MHD_Response *response;
    unsigned status;
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- connection phases (shim_lock held) ---------------------------------- */

static void set_phase(struct veil_httpd *server, struct tracked *t, enum phase phase) {
    if (!t) return;
    if (t->phase == HEADERS && !t->shut) server->unheadered--;
    t->phase = phase;
    t->since = now();
    if (t->phase == HEADERS && !t->shut) server->unheadered++;
}

static void shut(struct veil_httpd *server, struct tracked *t) {
    if (t->shut) return;
    if (t->phase == HEADERS) server->unheadered--;
    t->shut = 1;
    shutdown(t->fd, SHUT_RDWR);
}

static void on_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
    struct veil_httpd *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct tracked *t = calloc(1, sizeof *t);
        if (!t) return;
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        t->fd = info ? info->connect_fd : -1;
        t->phase = HEADERS;
        t->since = now();
        pthread_mutex_lock(&shim_lock);
        t->next = server->connections;
        if (t->next) t->next->prev = t;
        server->connections = t;
        if (t->fd >= 0) server->unheadered++;
        else t->shut = 1;
        // Too many still sending their headers: the oldest makes room.
        if (server->limits.max_unheadered && server->unheadered > server->limits.max_unheadered) {
            struct tracked *oldest = NULL;
            for (struct tracked *c = server->connections; c; c = c->next)
                if (c->phase == HEADERS && !c->shut && (!oldest || c->since < oldest->since)) oldest = c;
            if (oldest) { shut(server, oldest); server->stats.evicted++; }
        }
        pthread_mutex_unlock(&shim_lock);
        *socket_context = t;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        struct tracked *t = *socket_context;
        if (!t) return;
        pthread_mutex_lock(&shim_lock);
        if (t->phase == HEADERS && !t->shut) server->unheadered--;
        if (t->prev) t->prev->next = t->next; else server->connections = t->next;
        if (t->next) t->next->prev = t->prev;
        pthread_mutex_unlock(&shim_lock);
        free(t);
        *socket_context = NULL;
    }
}

/* Closes connections that send their headers or body too slowly. */
static void *reap(void *cls) {
    struct veil_httpd *server = cls;
    pthread_mutex_lock(&shim_lock);
    while (!server->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 250 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) { until.tv_sec += 1; until.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&server->wake, &shim_lock, &until);
        double t0 = now();
        for (struct tracked *c = server->connections; c; c = c->next) {
            if (c->shut) continue;
            double limit = c->phase == HEADERS ? server->limits.header_timeout
                         : c->phase == BODY ? server->limits.body_timeout : 0;
            if (limit > 0 && t0 - c->since > limit) { shut(server, c); server->stats.slow_closed++; }
        }
    }
    pthread_mutex_unlock(&shim_lock);
    return NULL;
}

/* ---- requests -------------------------------------------------------------- */

static void unlist(struct veil_httpd_request *r) {
    if (!r->listed) return;
    if (r->prev) r->prev->next = r->next; else r->server->waiting = r->next;
    if (r->next) r->next->prev = r->prev;
    r->prev = r->next = NULL;
    r->listed = 0;
}

/* Drops one reference; frees on the last. Takes shim_lock. */
static void release(struct veil_httpd_request *r) {
    pthread_mutex_lock(&shim_lock);
    int last = --r->refs == 0;
    pthread_mutex_unlock(&shim_lock);
    if (!last) return;
    free(r->method);
    free(r->path);
    free(r->body);
    if (r->response) MHD_destroy_response(r->response);
    free(r);
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                      enum MHD_RequestTerminationCode code) {
    (void)connection; (void)code;
    struct veil_httpd *server = cls;
    struct veil_httpd_request *r = *con_cls;
    *con_cls = NULL;
    if (!r) return;
    pthread_mutex_lock(&shim_lock);
    server->stats.body_bytes -= r->reserved;
    r->reserved = 0;
    r->closed = 1;
    unlist(r);
    // Keep-alive: the next request's headers are timed from now.
    set_phase(server, r->tracked, HEADERS);
    pthread_mutex_unlock(&shim_lock);
    release(r);
}

static enum MHD_Result queue(struct MHD_Connection *connection, struct MHD_Response *response, unsigned status) {
    if (!response) {
        static const char json[] = "{\"error\":\"no response\"}";
        response = MHD_create_response_from_buffer(sizeof json - 1, (void *)json, MHD_RESPMEM_PERSISTENT);
        if (!response) return MHD_NO;
        MHD_add_response_header(response, "Content-Type", "application/json");
        status = 500;
    }
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

/* Reserves `more` bytes of the body budget; 0 when it is spent. */
static int reserve(struct veil_httpd_request *r, size_t more) {
    struct veil_httpd *server = r->server;
    pthread_mutex_lock(&shim_lock);
    int fits = server->stats.body_bytes + more <= server->limits.body_budget;
    if (fits) { server->stats.body_bytes += more; r->reserved += more; }
    else server->stats.over_budget++;
    pthread_mutex_unlock(&shim_lock);
    return fits;
}

static void refuse(struct veil_httpd_request *r, unsigned status) {
    free(r->body); r->body = NULL; r->length = r->capacity = 0;
    r->refused = status;
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **con_cls) {
    (void)version;
    struct veil_httpd *server = cls;
    struct veil_httpd_request *r = *con_cls;
    if (r == NULL) {
        r = calloc(1, sizeof *r);
        if (!r) return MHD_NO;
        r->server = server;
        r->connection = connection;
        r->refs = 1;
        r->method = strdup(method);
        r->path = strdup(url);
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        r->tracked = info ? info->socket_context : NULL;
        *con_cls = r;
        pthread_mutex_lock(&shim_lock);
        set_phase(server, r->tracked, BODY);
        pthread_mutex_unlock(&shim_lock);
        // Refused before a byte of the body is read: no 100 Continue is sent,
        // and the connection closes after the answer.
        const char *declared = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
        unsigned long long length = declared ? strtoull(declared, NULL, 10) : 0;
        if (length > server->limits.max_body) r->refused = 413;
        else if (length > 0 && !reserve(r, (size_t)length)) {
            // Over the budget: a client that asked to continue is answered now;
            // one already sending would lose the answer to a reset if the
            // connection closed under its body, so that body is read and
            // dropped (bandwidth, no memory) and the 503 follows it.
            r->refused = 503;
            const char *expect = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Expect");
            if (!expect || strcasecmp(expect, "100-continue") != 0) return MHD_YES;
        }
        if (r->refused == 0) return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (r->refused) {
            // Grew past a limit without declaring its length: drop the rest,
            // and abort outright if the client keeps going far beyond it.
            r->discarded += n;
            return r->discarded > 4 * server->limits.max_body + (1u << 20) ? MHD_NO : MHD_YES;
        }
        if (r->length + n > server->limits.max_body) { refuse(r, 413); r->discarded = n; return MHD_YES; }
        if (r->length + n > r->reserved && !reserve(r, r->length + n - r->reserved)) { refuse(r, 503); r->discarded = n; return MHD_YES; }
        if (r->length + n > r->capacity) {
            size_t capacity = r->capacity ? r->capacity : 64 * 1024;
            while (capacity < r->length + n) capacity *= 2;
            if (capacity > server->limits.max_body) capacity = server->limits.max_body;
            uint8_t *grown = realloc(r->body, capacity);
            if (!grown) return MHD_NO;
            r->body = grown;
            r->capacity = capacity;
        }
        memcpy(r->body + r->length, upload_data, n);
        r->length += n;
        return MHD_YES;
    }
    if (!r->dispatched) {
        r->dispatched = 1;
        pthread_mutex_lock(&shim_lock);
        set_phase(server, r->tracked, WORKING);
        r->refs++;
        r->answer = DISPATCHING;
        pthread_mutex_unlock(&shim_lock);
        server->handler(server->context, r);
        // Answered already (a quick route, or a refusal): sent without suspending.
        pthread_mutex_lock(&shim_lock);
        struct MHD_Response *response = NULL;
        unsigned status = 0;
        int answered = r->answer == ANSWERED;
        if (answered) {
            response = r->response; status = r->status; r->response = NULL;
        } else {
            MHD_suspend_connection(connection);
            r->answer = SUSPENDED;
            r->listed = 1;
            r->next = server->waiting;
            if (r->next) r->next->prev = r;
            server->waiting = r;
        }
        pthread_mutex_unlock(&shim_lock);
        return answered ? queue(connection, response, status) : MHD_YES;
    }
    // Resumed with the answer.
    pthread_mutex_lock(&shim_lock);
    struct MHD_Response *response = r->response;
    unsigned status = r->status;
    r->response = NULL;
    unlist(r);
    pthread_mutex_unlock(&shim_lock);
    return queue(connection, response, status);
}

veil_httpd *veil_httpd_start(const char *host, uint16_t port, veil_httpd_limits limits,
                             veil_httpd_handler handler, void *context,
                             char *error, size_t error_length) {
    struct sockaddr_storage address;
    memset(&address, 0, sizeof address);
    unsigned flags = MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(error, error_length, "--host must be an IPv4 or IPv6 address, not '%s'", host);
        return NULL;
    }
    struct veil_httpd *server = calloc(1, sizeof *server);
    if (!server) { snprintf(error, error_length, "out of memory"); return NULL; }
    server->limits = limits;
    server->handler = handler;
    server->context = context;
    pthread_cond_init(&server->wake, NULL);
    server->daemon = MHD_start_daemon(flags, port, NULL, NULL, access_handler, server,
                                      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                      MHD_OPTION_NOTIFY_COMPLETED, completed, server,
                                      MHD_OPTION_NOTIFY_CONNECTION, on_connection, server,
                                      MHD_OPTION_CONNECTION_LIMIT, limits.connection_limit,
                                      MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.per_ip_limit,
                                      MHD_OPTION_CONNECTION_TIMEOUT, limits.idle_timeout,
                                      // Room for a request's headers beside the answer's (see
                                      // VEIL_HTTPD_MAX_EXTRA_HEADERS); headers past it get 431.
                                      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)64 * 1024,
                                      MHD_OPTION_THREAD_POOL_SIZE, limits.threads > 1 ? limits.threads : 0,
                                      MHD_OPTION_END);
    if (!server->daemon) {
        snprintf(error, error_length, "cannot listen on %s:%u (in use, or not an address of this machine)", host, (unsigned)port);
        pthread_cond_destroy(&server->wake);
        free(server);
        return NULL;
    }
    server->reaper_started = pthread_create(&server->reaper, NULL, reap, server) == 0;
    return server;
}

uint16_t veil_httpd_port(veil_httpd *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

void veil_httpd_quiesce(veil_httpd *server) {
    MHD_socket listener = MHD_quiesce_daemon(server->daemon);
    if (listener != MHD_INVALID_SOCKET) close(listener);
}

unsigned veil_httpd_connections(veil_httpd *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

veil_httpd_stats veil_httpd_get_stats(veil_httpd *server) {
    pthread_mutex_lock(&shim_lock);
    veil_httpd_stats stats = server->stats;
    for (struct veil_httpd_request *r = server->waiting; r; r = r->next) if (r->answer == SUSPENDED) stats.awaiting++;
    pthread_mutex_unlock(&shim_lock);
    return stats;
}

static void sleep_ms(long ms) {
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

void veil_httpd_stop(veil_httpd *server) {
    if (!server) return;
    // libmicrohttpd aborts the process when stopped with a connection still
    // suspended: answer every request whose handler has not, and resume it.
    static const char json[] = "{\"error\":\"the server is stopping; retry shortly\"}\n";
    struct MHD_Connection *resume[256];
    for (;;) {
        size_t count = 0;
        pthread_mutex_lock(&shim_lock);
        server->stopping = 1;
        pthread_cond_signal(&server->wake);
        for (struct veil_httpd_request *r = server->waiting; r && count < 256; r = r->next) {
            if (r->answer != SUSPENDED) continue;
            struct MHD_Response *response = MHD_create_response_from_buffer(sizeof json - 1, (void *)json, MHD_RESPMEM_PERSISTENT);
            if (response) {
                MHD_add_response_header(response, "Content-Type", "application/json");
                MHD_add_response_header(response, "Connection", "close");
                MHD_add_response_header(response, "Retry-After", "1");
            }
            r->response = response;
            r->status = 503;
            r->answer = ANSWERED;
            resume[count++] = r->connection;
        }
        pthread_mutex_unlock(&shim_lock);
        for (size_t i = 0; i < count; i++) MHD_resume_connection(resume[i]);
        if (count < 256) break;
    }
    if (server->reaper_started) pthread_join(server->reaper, NULL);
    // Let the daemon send those answers (it resumes them on its own thread).
    for (int i = 0; i < 500; i++) {
        pthread_mutex_lock(&shim_lock);
        int busy = server->waiting != NULL;
        for (struct tracked *c = server->connections; c && !busy; c = c->next) busy = c->phase == WORKING && !c->shut;
        pthread_mutex_unlock(&shim_lock);
        if (!busy) break;
        sleep_ms(10);
    }
    MHD_stop_daemon(server->daemon);
    pthread_cond_destroy(&server->wake);
    free(server);
}

const char *veil_httpd_method(veil_httpd_request *r) { return r->method; }
const char *veil_httpd_path(veil_httpd_request *r) { return r->path; }
unsigned veil_httpd_refused(veil_httpd_request *r) { return r->refused; }

uint8_t *veil_httpd_take_body(veil_httpd_request *r, size_t *length) {
    uint8_t *body = r->body;
    *length = r->length;
    r->body = NULL;
    r->length = r->capacity = 0;
    return body;
}

struct pairs { char *data; size_t length, capacity; };

static enum MHD_Result collect(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct pairs *p = cls;
    if (!value) value = "";
    size_t k = strlen(key) + 1, v = strlen(value) + 1;
    if (p->length + k + v > p->capacity) {
        size_t capacity = (p->capacity + k + v) * 2;
        char *grown = realloc(p->data, capacity);
        if (!grown) return MHD_NO;
        p->data = grown;
        p->capacity = capacity;
    }
    memcpy(p->data + p->length, key, k); p->length += k;
    memcpy(p->data + p->length, value, v); p->length += v;
    return MHD_YES;
}

size_t veil_httpd_pairs(veil_httpd_request *r, int kind, char **out) {
    struct pairs p = {0};
    MHD_get_connection_values(r->connection, kind == 0 ? MHD_HEADER_KIND : MHD_GET_ARGUMENT_KIND, collect, &p);
    *out = p.data;
    return p.length;
}

void veil_httpd_free(void *pointer) { free(pointer); }

static struct MHD_Response *build(unsigned *status, const char *content_type, const void *body, size_t length,
                                  const char *headers, int close) {
    if (headers && strlen(headers) > VEIL_HTTPD_MAX_EXTRA_HEADERS) {
        // Would not fit beside the request's headers: a plain error, never silence.
        static const char json[] = "{\"error\":\"the answer's headers are too large to send\"}\n";
        *status = 500;
        content_type = "application/json";
        body = json; length = sizeof json - 1; headers = NULL;
    }
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!response) return NULL;
    if (content_type) MHD_add_response_header(response, "Content-Type", content_type);
    if (close) MHD_add_response_header(response, "Connection", "close");
    const char *line = headers;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', n);
        if (colon) {
            char *name = strndup(line, (size_t)(colon - line));
            const char *v = colon + 1;
            while (*v == ' ') v++;
            char *value = strndup(v, n - (size_t)(v - line));
            if (name && value) MHD_add_response_header(response, name, value);
            free(name); free(value);
        }
        line = end ? end + 1 : NULL;
    }
    return response;
}

void veil_httpd_respond(veil_httpd_request *r, unsigned status, const char *content_type,
                        const void *body, size_t length, const char *headers) {
    struct MHD_Response *response = build(&status, content_type, body, length, headers, r->refused != 0);
    pthread_mutex_lock(&shim_lock);
    int resume = 0;
    if (r->answer != ANSWERED && !r->closed) {
        resume = r->answer == SUSPENDED;
        r->response = response;
        r->status = status;
        r->answer = ANSWERED;
        response = NULL;
    }
    struct MHD_Connection *connection = r->connection;
    pthread_mutex_unlock(&shim_lock);
    // Lost to veil_httpd_stop: nothing to send.
    if (response) MHD_destroy_response(response);
    // Still suspended until this call, so the connection is still there.
    if (resume) MHD_resume_connection(connection);
    release(r);
}
