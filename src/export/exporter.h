/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The exporter: after every completed refresh it builds the exposition
 * once, publishes it for the HTTP endpoint (--listen) by swapping one
 * pointer, and writes it to --prom-file (temporary file, then rename).
 * The HTTP server (libmicrohttpd) runs in its own thread and only ever
 * hands out published, immutable buffers: a scrape never waits for a
 * refresh, a refresh never waits for a scrape, and no scrape sees half a
 * refresh.
 */
#ifndef EBPFTOP_EXPORT_EXPORTER_H
#define EBPFTOP_EXPORT_EXPORTER_H

#include <stddef.h>

#include "analysis/snapshot.h"
#include "export/listen_addr.h"

struct exporter;

/*
 * Set up what is asked: bind @listen's socket (--listen, NULL if none)
 * and start serving, check @prom_file's directory (--prom-file, NULL if
 * none). *@out is NULL when neither is asked.
 * Returns 0; -EINVAL for bad usage (a bad address, a missing directory:
 * exit 2); another negative errno for runtime failures (port in use, no
 * permission: exit 1). @msg gets one line.
 */
int exporter__new(struct exporter **out, const struct listen_addr *listen,
		  const char *prom_file, char *msg, size_t msglen);

/*
 * Publish the refresh in @snap, which took @refresh_s seconds. Errors
 * writing --prom-file are kept for exporter__take_error(); the endpoint
 * goes on serving the previous refresh if this one cannot be built.
 */
void exporter__publish(struct exporter *e, const struct snapshot *snap,
		       double refresh_s);

/*
 * A new error message since the last call (for example the --prom-file
 * directory became read-only), or NULL. The exporter goes on.
 */
const char *exporter__take_error(struct exporter *e);

/* Stop serving, close everything. NULL is fine. */
void exporter__free(struct exporter *e);

#endif
