#include "veil_httpd.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

struct veil_httpd {
    struct MHD_Daemon *daemon;
    size_t max_body;
    veil_httpd_handler handler;
    void *context;
};

struct veil_httpd_request {
    struct veil_httpd *server;
    struct MHD_Connection *connection;
    char *method;
    char *path;
    uint8_t *body;
    size_t length, capacity;
    size_t discarded;
    unsigned refused;
    int dispatched;
    pthread_mutex_t lock;
    struct MHD_Response *response;
    unsigned status;
};

static void free_request(struct veil_httpd_request *r) {
    if (!r) return;
    free(r->method);
    free(r->path);
    free(r->body);
    if (r->response) MHD_destroy_response(r->response);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                      enum MHD_RequestTerminationCode code) {
    (void)cls; (void)connection; (void)code;
    free_request(*con_cls);
    *con_cls = NULL;
}

static enum MHD_Result queue_plain(struct MHD_Connection *connection, unsigned status, const char *json) {
    struct MHD_Response *response = MHD_create_response_from_buffer(strlen(json), (void *)json, MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json");
    MHD_add_response_header(response, "Connection", "close");
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
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
        pthread_mutex_init(&r->lock, NULL);
        r->server = server;
        r->connection = connection;
        r->method = strdup(method);
        r->path = strdup(url);
        *con_cls = r;
        const char *declared = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
        if (declared && strtoull(declared, NULL, 10) > server->max_body) {
            // Refused before a byte of the body is read: no 100 Continue is sent,
            // and the connection closes after the answer.
            r->refused = 413;
        }
        if (r->refused == 0) return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (r->refused) {
            // Grew past the limit without declaring its length: drop the rest,
            // and abort outright if the client keeps going far beyond it.
            r->discarded += n;
            return r->discarded > 4 * server->max_body + (1u << 20) ? MHD_NO : MHD_YES;
        }
        if (r->length + n > server->max_body) {
            free(r->body); r->body = NULL; r->length = r->capacity = 0;
            r->refused = 413;
            r->discarded = n;
            return MHD_YES;
        }
        if (r->length + n > r->capacity) {
            size_t capacity = r->capacity ? r->capacity : 64 * 1024;
            while (capacity < r->length + n) capacity *= 2;
            if (capacity > server->max_body) capacity = server->max_body;
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
        MHD_suspend_connection(connection);
        server->handler(server->context, r);
        return MHD_YES;
    }
    pthread_mutex_lock(&r->lock);
    struct MHD_Response *response = r->response;
    unsigned status = r->status;
    r->response = NULL;
    pthread_mutex_unlock(&r->lock);
    if (!response) return queue_plain(connection, 500, "{\"error\":\"no response\"}");
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

veil_httpd *veil_httpd_start(const char *host, uint16_t port, size_t max_body,
                             unsigned connection_limit, unsigned idle_timeout_seconds,
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
    server->max_body = max_body;
    server->handler = handler;
    server->context = context;
    server->daemon = MHD_start_daemon(flags, port, NULL, NULL, access_handler, server,
                                      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                      MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                                      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                      MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout_seconds,
                                      MHD_OPTION_END);
    if (!server->daemon) {
        snprintf(error, error_length, "cannot listen on %s:%u (in use, or not an address of this machine)", host, (unsigned)port);
        free(server);
        return NULL;
    }
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

void veil_httpd_stop(veil_httpd *server) {
    if (!server) return;
    MHD_stop_daemon(server->daemon);
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

void veil_httpd_respond(veil_httpd_request *r, unsigned status, const char *content_type,
                        const void *body, size_t length, const char *headers) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response) {
        if (content_type) MHD_add_response_header(response, "Content-Type", content_type);
        if (r->refused) MHD_add_response_header(response, "Connection", "close");
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
                MHD_add_response_header(response, name, value);
                free(name); free(value);
            }
            line = end ? end + 1 : NULL;
        }
    }
    pthread_mutex_lock(&r->lock);
    r->response = response;
    r->status = status;
    pthread_mutex_unlock(&r->lock);
    MHD_resume_connection(r->connection);
}
