// SPDX-License-Identifier: GPL-2.0-only
/* The exporter: builds each refresh's exposition once, publishes it, writes --prom-file. */
#include "config.h"

#include "export/exporter.h"
#include "export/http.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "export/metrics.h"

static void set_error(struct exporter *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_error(struct exporter *e, const char *fmt, ...)
{
	char msg[sizeof(e->err)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The same failure every refresh is said once. */
	if (strcmp(msg, e->err)) {
		snprintf(e->err, sizeof(e->err), "%s", msg);
		e->err_new = true;
	}
}

const char *exporter__take_error(struct exporter *e)
{
	if (!e || !e->err_new)
		return NULL;
	e->err_new = false;
	return e->err;
}

/* ---- --prom-file ----------------------------------------------------------- */

static int setup_prom_file(struct exporter *e, const char *path, char *msg,
			   size_t msglen)
{
	char *d = strdup(path), *b = strdup(path);
	struct stat st;
	int err = 0;

	if (!d || !b) {
		free(d);
		free(b);
		snprintf(msg, msglen, "--prom-file: out of memory");
		return -ENOMEM;
	}
	e->prom_path = strdup(path);
	e->prom_tmpl_dir = strdup(dirname(d));
	e->prom_base = strdup(basename(b));
	free(d);
	free(b);
	if (!e->prom_path || !e->prom_tmpl_dir || !e->prom_base) {
		snprintf(msg, msglen, "--prom-file: out of memory");
		return -ENOMEM;
	}
	if (path[strlen(path) - 1] == '/' || !strcmp(e->prom_base, ".") ||
	    !strcmp(e->prom_base, "..")) {
		snprintf(msg, msglen, "--prom-file: '%s' names a directory, not a file", path);
		return -EINVAL;
	}
	if (stat(e->prom_tmpl_dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(msg, msglen, "--prom-file: directory '%s' does not exist",
			 e->prom_tmpl_dir);
		return -EINVAL;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(msg, msglen, "--prom-file: '%s' is a directory", path);
		return -EINVAL;
	}
	if (access(e->prom_tmpl_dir, W_OK)) {
		err = -errno;
		snprintf(msg, msglen, "--prom-file: cannot write in '%s': %s",
			 e->prom_tmpl_dir, strerror(-err));
	}
	return err;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Readers (node_exporter's textfile collector) see the old file or the
 * new one, never a part: write a hidden temporary file beside it, then
 * rename it over.
 */
static void write_prom_file(struct exporter *e, const struct blob *b)
{
	char tmp[4096];
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", e->prom_tmpl_dir,
		     e->prom_base) >= (int)sizeof(tmp)) {
		set_error(e, "--prom-file: the path is too long");
		return;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		set_error(e, "--prom-file: cannot create a file in '%s': %s",
			  e->prom_tmpl_dir, strerror(errno));
		return;
	}
	err = write_all(fd, b->data, b->len);
	if (!err && fchmod(fd, 0644))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, e->prom_path))
		err = -errno;
	if (err) {
		unlink(tmp);
		set_error(e, "--prom-file: cannot write '%s': %s", e->prom_path,
			  strerror(-err));
		return;
	}
	e->err[0] = '\0';
}

/* ---- publishing -------------------------------------------------------------- */

static struct blob *render(struct exporter *e, enum om_format f)
{
	struct om_buf out = {};
	struct blob *b;

	/* Last time's size plus room: usually one allocation. */
	out.cap = e->last_len[f] + e->last_len[f] / 8 + 4096;
	out.p = malloc(out.cap);
	if (!out.p)
		return NULL;
	if (om_render(&e->w, f, &out)) {
		om_buf_free(&out);
		return NULL;
	}
	b = malloc(sizeof(*b));
	if (!b) {
		om_buf_free(&out);
		return NULL;
	}
	atomic_init(&b->refs, 1);
	b->len = out.len;
	b->data = out.p;
	e->last_len[f] = out.len;
	return b;
}

static void publish(struct exporter *e, enum om_format f, struct blob *b)
{
	struct blob *old;

	atomic_fetch_add(&b->refs, 1);	/* the published reference */
	pthread_mutex_lock(&e->pub_lock);
	old = e->cur[f];
	e->cur[f] = b;
	pthread_mutex_unlock(&e->pub_lock);
	exporter_blob_put(old);
}

void exporter__publish(struct exporter *e, const struct snapshot *snap,
		       double refresh_s)
{
	struct blob *text = NULL, *om = NULL;

	if (!e)
		return;
	if (metrics_build(&e->w, snap, refresh_s)) {
		set_error(e, "cannot build the metrics: out of memory");
		return;
	}
	if (e->mhd || e->prom_path) {
		text = render(e, OM_FORMAT_TEXT);
		if (!text)
			set_error(e, "cannot build the metrics: out of memory");
	}
	if (e->mhd) {
		om = render(e, OM_FORMAT_OPENMETRICS);
		if (!om)
			set_error(e, "cannot build the metrics: out of memory");
		/* Both formats move to the new refresh, or neither. */
		if (text && om) {
			publish(e, OM_FORMAT_TEXT, text);
			publish(e, OM_FORMAT_OPENMETRICS, om);
		}
	}
	if (e->prom_path && text)
		write_prom_file(e, text);
	exporter_blob_put(text);
	exporter_blob_put(om);
}

int exporter__new(struct exporter **out, const struct listen_addr *listen,
		  const char *prom_file, char *msg, size_t msglen)
{
	struct exporter *e;
	int err = 0;

	*out = NULL;
	if (!listen && !prom_file)
		return 0;
	e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	om_writer_init(&e->w);
	pthread_mutex_init(&e->pub_lock, NULL);
	pthread_mutex_init(&e->conn_lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&e->conn_cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	if (prom_file)
		err = setup_prom_file(e, prom_file, msg, msglen);
	if (!err && listen)
		err = exporter_http_start(e, listen, msg, msglen);
	if (err) {
		exporter__free(e);
		return err;
	}
	*out = e;
	return 0;
}

void exporter__free(struct exporter *e)
{
	if (!e)
		return;
	exporter_http_stop(e);
	for (int f = 0; f < 2; f++)
		exporter_blob_put(e->cur[f]);
	pthread_cond_destroy(&e->conn_cond);
	pthread_mutex_destroy(&e->conn_lock);
	pthread_mutex_destroy(&e->pub_lock);
	om_writer_free(&e->w);
	free(e->prom_path);
	free(e->prom_tmpl_dir);
	free(e->prom_base);
	free(e);
}
