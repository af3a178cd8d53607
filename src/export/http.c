// SPDX-License-Identifier: GPL-2.0-only
/* The exporter's HTTP endpoint: libmicrohttpd, its fixed answers, the slow-request watchdog. */
#include "config.h"

#include "export/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "export/mhd_lib.h"
#include "util/clock.h"

void exporter_blob_put(struct blob *b)
{
	if (b && atomic_fetch_sub(&b->refs, 1) == 1) {
		free(b->data);
		free(b);
	}
}

/* MHD is done sending a response made on a published blob. */
static void blob_release(void *cls)
{
	exporter_blob_put(cls);
}

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><title>ebpftop</title></head>\n"
	"<body><h1>ebpftop</h1>\n"
	"<p>BPF program metrics for Prometheus: <a href=\"/metrics\">/metrics</a></p>\n"
	"</body></html>\n";

static enum MHD_Result queue(struct MHD_Connection *c, unsigned int status,
			     struct MHD_Response *r)
{
	return r ? libmhd.MHD_queue_response(c, status, r) : MHD_NO;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload_data,
				  size_t *upload_data_size, void **req_cls)
{
	struct exporter *e = cls;
	bool metrics = !strcmp(url, "/metrics");
	struct MHD_Response *r;
	enum MHD_Result ret;
	enum om_format fmt;
	unsigned int open;
	struct blob *b;

	if (!metrics && strcmp(url, "/"))
		return queue(c, MHD_HTTP_NOT_FOUND, e->r_404);
	/* MHD answers HEAD with the headers of the GET response. */
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return queue(c, MHD_HTTP_METHOD_NOT_ALLOWED, e->r_405);
	/*
	 * Answer on the second call, once MHD has read the whole request:
	 * a response queued on the first call closes the connection, and
	 * Prometheus would reconnect for every scrape.
	 */
	if (!*req_cls) {
		*req_cls = e;
		return MHD_YES;
	}
	if (*upload_data_size) {
		/* A GET with a body: drop it (the deadline bounds it), say 400. */
		*upload_data_size = 0;
		*req_cls = &e->r_400;
		return MHD_YES;
	}
	if (*req_cls == &e->r_400)
		return queue(c, MHD_HTTP_BAD_REQUEST, e->r_400);
	if (!metrics)
		return queue(c, MHD_HTTP_OK, e->r_index);

	fmt = om_negotiate(libmhd.MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						       MHD_HTTP_HEADER_ACCEPT));
	pthread_mutex_lock(&e->pub_lock);
	b = e->cur[fmt];
	if (b)
		atomic_fetch_add(&b->refs, 1);
	pthread_mutex_unlock(&e->pub_lock);
	if (!b)
		return queue(c, MHD_HTTP_SERVICE_UNAVAILABLE, e->r_503);
	r = libmhd.MHD_create_response_from_buffer_with_free_callback_cls(
		b->len, b->data, blob_release, b);
	if (!r) {
		exporter_blob_put(b);
		return MHD_NO;
	}
	libmhd.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om_content_type(fmt));
	libmhd.MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept");
	libmhd.MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	/*
	 * Busy: close after this answer rather than keep the connection
	 * idle in a slot that a waiting client could use.
	 */
	pthread_mutex_lock(&e->conn_lock);
	open = e->nr_open;
	pthread_mutex_unlock(&e->conn_lock);
	if (open > EXPORT_HTTP_MAX_CONNECTIONS / 2)
		libmhd.MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = libmhd.MHD_queue_response(c, MHD_HTTP_OK, r);
	libmhd.MHD_destroy_response(r);
	return ret;
}

static void on_connection(void *cls, struct MHD_Connection *c,
			  void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct exporter *e = cls;
	struct conn_slot *slot = *socket_context;

	pthread_mutex_lock(&e->conn_lock);
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			libmhd.MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		for (size_t i = 0; ci && i < CONN_SLOTS; i++) {
			if (e->conns[i].used)
				continue;
			e->conns[i] = (struct conn_slot){
				.used = true,
				.fd = ci->connect_fd,
				.since_ns = mono_now_ns(),
			};
			*socket_context = &e->conns[i];
			break;
		}
		e->nr_open++;
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (e->nr_open)
			e->nr_open--;
	}
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED && slot) {
		/* Before MHD closes the fd: the watchdog lets go of it now. */
		slot->used = false;
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&e->conn_lock);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	const union MHD_ConnectionInfo *ci =
		libmhd.MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct exporter *e = cls;
	struct conn_slot *slot = ci ? ci->socket_context : NULL;

	/* A kept-alive connection gets a new deadline for its next request. */
	pthread_mutex_lock(&e->conn_lock);
	if (slot && slot->used)
		slot->since_ns = mono_now_ns();
	pthread_mutex_unlock(&e->conn_lock);
}

/*
 * MHD's timeout only counts silence: a client sending one byte a second
 * would keep a connection forever. This ends any connection whose request
 * has not been answered within the deadline.
 */
static void *watchdog_main(void *arg)
{
	struct exporter *e = arg;
	const uint64_t deadline = EXPORT_HTTP_REQUEST_DEADLINE * 1000000000ull;

	pthread_mutex_lock(&e->conn_lock);
	while (!e->stopping) {
		struct timespec ts;
		uint64_t now;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 500000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&e->conn_cond, &e->conn_lock, &ts);
		now = mono_now_ns();
		for (size_t i = 0; i < CONN_SLOTS; i++) {
			struct conn_slot *s = &e->conns[i];
			struct linger l = { .l_onoff = 1, .l_linger = 0 };

			if (!s->used || s->killed || now - s->since_ns < deadline)
				continue;
			/* Reset rather than drain: the client is not reading. */
			setsockopt(s->fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
			shutdown(s->fd, SHUT_RDWR);
			s->killed = true;
		}
	}
	pthread_mutex_unlock(&e->conn_lock);
	return NULL;
}

static struct MHD_Response *static_response(const char *body,
					    const char *type)
{
	struct MHD_Response *r = libmhd.MHD_create_response_from_buffer(
		strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);

	if (r)
		libmhd.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

/* Bind @a's socket ourselves: errors worth a clear line, before MHD. */
static int bind_listen(const struct listen_addr *a, int *fd_out, char *msg,
		       size_t msglen)
{
	struct sockaddr_storage ss = {};
	socklen_t sl;
	int fd, one = 1, err;

	if (a->family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(a->port);
		inet_pton(AF_INET6, a->host, &s6->sin6_addr);
		sl = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(a->port);
		inet_pton(AF_INET, a->host, &s4->sin_addr);
		sl = sizeof(*s4);
	}
	fd = socket(a->family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, msglen, "--listen: cannot create a socket: %s",
			 strerror(-err));
		return err;
	}
	/* A restart must not wait for the old connections' TIME_WAIT. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/*
	 * Connections beyond the server's limit wait in the backlog: a long
	 * one, so that a burst of clients is queued, not dropped (a dropped
	 * SYN is retried only after 1, 3, 7 ... seconds).
	 */
	if (bind(fd, (struct sockaddr *)&ss, sl) ||
	    listen(fd, EXPORT_HTTP_BACKLOG)) {
		err = -errno;
		close(fd);
		if (err == -EADDRINUSE) {
			snprintf(msg, msglen,
				 "--listen: %s%s%s:%u is already in use (another program listens there: choose another port)",
				 a->family == AF_INET6 ? "[" : "", a->host,
				 a->family == AF_INET6 ? "]" : "", a->port);
		} else if (err == -EACCES || err == -EPERM) {
			snprintf(msg, msglen,
				 "--listen: port %u is privileged: use a port from 1024 up, or grant CAP_NET_BIND_SERVICE",
				 a->port);
		} else if (err == -EADDRNOTAVAIL) {
			snprintf(msg, msglen,
				 "--listen: %s is not an address of this machine",
				 a->host);
			return -EINVAL;
		} else {
			snprintf(msg, msglen, "--listen: cannot listen on %s port %u: %s",
				 a->host, a->port, strerror(-err));
		}
		return err;
	}
	*fd_out = fd;
	return 0;
}

int exporter_http_start(struct exporter *e, const struct listen_addr *a,
			char *msg, size_t msglen)
{
	sigset_t all, old;
	int fd = -1, err;
	char why[400];

	/* Loaded now, not at start: only --listen needs it (and GnuTLS). */
	err = mhd_lib_load(why, sizeof(why));
	if (err) {
		snprintf(msg, msglen, "--listen: %s", why);
		return err;
	}
	e->r_index = static_response(index_page, "text/html; charset=utf-8");
	e->r_400 = static_response("bad request: a GET has no body\n",
				   "text/plain; charset=utf-8");
	e->r_404 = static_response("not found: metrics are at /metrics\n",
				   "text/plain; charset=utf-8");
	e->r_405 = static_response("method not allowed: use GET or HEAD\n",
				   "text/plain; charset=utf-8");
	e->r_503 = static_response("no refresh has completed yet: try again in a moment\n",
				   "text/plain; charset=utf-8");
	if (!e->r_index || !e->r_400 || !e->r_404 || !e->r_405 || !e->r_503) {
		snprintf(msg, msglen, "--listen: out of memory");
		return -ENOMEM;
	}
	libmhd.MHD_add_response_header(e->r_405, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	libmhd.MHD_add_response_header(e->r_503, MHD_HTTP_HEADER_RETRY_AFTER, "1");

	err = bind_listen(a, &fd, msg, msglen);
	if (err)
		return err;
	/*
	 * The server's threads take no signals: SIGINT and friends must
	 * reach the main thread, whose sleep they interrupt.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e->mhd = libmhd.MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL,
		on_request, e,
		MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_CONNECTION_LIMIT,
		(unsigned int)EXPORT_HTTP_MAX_CONNECTIONS,
		MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned int)EXPORT_HTTP_IDLE_TIMEOUT,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT,
		(size_t)EXPORT_HTTP_MAX_REQUEST,
		MHD_OPTION_STRICT_FOR_CLIENT, 1,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, e,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, e,
		MHD_OPTION_END);
	if (e->mhd) {
		err = pthread_create(&e->watchdog, NULL, watchdog_main, e);
		e->watchdog_running = !err;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!e->mhd) {
		close(fd);
		snprintf(msg, msglen, "--listen: cannot start the HTTP server");
		return -EIO;
	}
	if (err) {
		snprintf(msg, msglen, "--listen: cannot start a thread: %s",
			 strerror(err));
		return -err;
	}
	return 0;
}

void exporter_http_stop(struct exporter *e)
{
	/* MHD drops its responses, and with them their references, here. */
	if (e->mhd)
		libmhd.MHD_stop_daemon(e->mhd);
	e->mhd = NULL;
	if (e->watchdog_running) {
		pthread_mutex_lock(&e->conn_lock);
		e->stopping = true;
		pthread_cond_signal(&e->conn_cond);
		pthread_mutex_unlock(&e->conn_lock);
		pthread_join(e->watchdog, NULL);
		e->watchdog_running = false;
	}
	if (e->r_index)
		libmhd.MHD_destroy_response(e->r_index);
	if (e->r_400)
		libmhd.MHD_destroy_response(e->r_400);
	if (e->r_404)
		libmhd.MHD_destroy_response(e->r_404);
	if (e->r_405)
		libmhd.MHD_destroy_response(e->r_405);
	if (e->r_503)
		libmhd.MHD_destroy_response(e->r_503);
	e->r_index = e->r_400 = e->r_404 = e->r_405 = e->r_503 = NULL;
}
