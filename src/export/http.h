/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_EXPORT_HTTP_H
#define EBPFTOP_EXPORT_HTTP_H

/*
 * Private to the exporter: its state and the HTTP endpoint's limits, used
 * by http.c (the --listen endpoint) and exporter.c (publishing, --prom-file).
 */

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <microhttpd.h>

#include "export/listen_addr.h"
#include "export/openmetrics.h"

/*
 * One published exposition: immutable once published, freed by whoever
 * drops the last reference (the next publish, or a response MHD is done
 * sending).
 */
struct blob {
	atomic_uint refs;
	size_t len;
	char *data;
};

/* HTTP limits (see ebpftop(8), EXPORT). */
#define EXPORT_HTTP_MAX_CONNECTIONS 64
#define EXPORT_HTTP_BACKLOG 1024	/* connections waiting for a slot */
#define EXPORT_HTTP_MAX_REQUEST 16384	/* bytes of request line and headers */
#define EXPORT_HTTP_IDLE_TIMEOUT 5	/* seconds without traffic */
#define EXPORT_HTTP_REQUEST_DEADLINE 10	/* seconds for a whole request */

/* A connection the watchdog supervises. */
struct conn_slot {
	bool used;
	bool killed;
	int fd;
	uint64_t since_ns;	/* opened, or its previous request answered */
};

#define CONN_SLOTS (EXPORT_HTTP_MAX_CONNECTIONS + 8)

struct exporter {
	struct om_writer w;
	size_t last_len[2];		/* per format: to size the next buffer */

	/* --listen */
	struct MHD_Daemon *mhd;
	pthread_mutex_t pub_lock;	/* guards cur[]: held for a pointer swap */
	struct blob *cur[2];		/* indexed by enum om_format */
	struct MHD_Response *r_index, *r_400, *r_404, *r_405, *r_503;

	/* Closes connections that take too long over one request. */
	pthread_mutex_t conn_lock;
	pthread_cond_t conn_cond;
	struct conn_slot conns[CONN_SLOTS];
	unsigned int nr_open;		/* connections open now */
	pthread_t watchdog;
	bool watchdog_running;
	bool stopping;

	/* --prom-file */
	char *prom_path;
	char *prom_tmpl_dir;		/* directory of prom_path */
	char *prom_base;		/* its last component */

	char err[256];			/* latest error, "" when fine */
	bool err_new;
};

/* Drop a reference to @b; the last one frees it. NULL is fine. */
void exporter_blob_put(struct blob *b);

/*
 * Load libmicrohttpd, bind --listen's socket, start it and the watchdog.
 * 0, or a negative errno with one line in @msg (-EINVAL: bad usage;
 * -ELIBACC: libmicrohttpd cannot be loaded).
 */
int exporter_http_start(struct exporter *e, const struct listen_addr *a,
			char *msg, size_t msglen);

/* Stop serving: the daemon, the watchdog, the fixed answers. Idempotent. */
void exporter_http_stop(struct exporter *e);

#endif
