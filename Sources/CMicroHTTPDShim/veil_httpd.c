#include "veil_httpd.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

/* The Swift side returns MHD_Result as an int. */
_Static_assert(MHD_YES == 1 && MHD_NO == 0, "MHD_Result is 1 for yes, 0 for no");
_Static_assert(sizeof(enum MHD_Result) == sizeof(int), "MHD_Result is an int");

struct veil_httpd {
    struct MHD_Daemon *daemon;
    veil_httpd_callbacks callbacks;
};

static void on_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
    struct veil_httpd *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = server->callbacks.opened(server->callbacks.context, info ? info->connect_fd : -1);
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        server->callbacks.closed(server->callbacks.context, *socket_context);
        *socket_context = NULL;
    }
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **con_cls) {
    (void)version;
    struct veil_httpd *server = cls;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return server->callbacks.access(server->callbacks.context, connection, info ? info->socket_context : NULL,
                                    url, method, upload_data, upload_data_size, con_cls) ? MHD_YES : MHD_NO;
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                      enum MHD_RequestTerminationCode code) {
    (void)connection; (void)code;
    struct veil_httpd *server = cls;
    if (*con_cls) server->callbacks.completed(server->callbacks.context, *con_cls);
    *con_cls = NULL;
}

veil_httpd *veil_httpd_start(const char *host, uint16_t port, veil_httpd_options options,
                             veil_httpd_callbacks callbacks, int *failure) {
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
        *failure = VEIL_HTTPD_BAD_ADDRESS;
        return NULL;
    }
    struct veil_httpd *server = calloc(1, sizeof *server);
    if (!server) { *failure = VEIL_HTTPD_NO_MEMORY; return NULL; }
    server->callbacks = callbacks;
    server->daemon = MHD_start_daemon(flags, port, NULL, NULL, access_handler, server,
                                      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                      MHD_OPTION_NOTIFY_COMPLETED, completed, server,
                                      MHD_OPTION_NOTIFY_CONNECTION, on_connection, server,
                                      MHD_OPTION_CONNECTION_LIMIT, options.connection_limit,
                                      MHD_OPTION_PER_IP_CONNECTION_LIMIT, options.per_ip_limit,
                                      MHD_OPTION_CONNECTION_TIMEOUT, options.idle_timeout,
                                      // Room for a request's headers beside the answer's (see
                                      // VEIL_HTTPD_MAX_EXTRA_HEADERS); headers past it get 431.
                                      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)64 * 1024,
                                      MHD_OPTION_THREAD_POOL_SIZE, options.threads > 1 ? options.threads : 0,
                                      MHD_OPTION_END);
    if (!server->daemon) {
        *failure = VEIL_HTTPD_CANNOT_LISTEN;
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

void veil_httpd_stop(veil_httpd *server) {
    if (!server) return;
    MHD_stop_daemon(server->daemon);
    free(server);
}
