// SPDX-License-Identifier: GPL-2.0-only
/* ebpftop: top for BPF programs. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sort.h"
#include "app.h"
#include "cli.h"
#include "output/batch.h"
#include "ui/tui.h"

/* Copy, filter and sort the snapshot's rows for printing. */
static size_t view_rows(const struct app *a, struct prog_row **view,
			size_t *cap)
{
	const struct snapshot *s = &a->snap;
	size_t n;

	if (s->nr_rows > *cap) {
		struct prog_row *v = realloc(*view, s->nr_rows * sizeof(*v));

		if (!v)
			return 0;
		*view = v;
		*cap = s->nr_rows;
	}
	if (s->nr_rows)
		memcpy(*view, s->rows, s->nr_rows * sizeof(**view));
	n = rows_filter(*view, s->nr_rows, a->opts->filter);
	rows_sort(*view, n, a->opts->sort);
	return n;
}

static int run_batch(struct app *a)
{
	const struct ebpftop_opts *o = a->opts;
	unsigned long long next = app_now_ns();
	struct prog_row *view = NULL;
	size_t cap = 0;
	int err = 0;

	/*
	 * One write per refresh rather than per line (10,000 programs are
	 * 10,000 lines), flushed at the end of every refresh so readers see
	 * each one whole and at once.
	 */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	for (unsigned long i = 0; !app_quit; i++) {
		size_t n;

		err = app_sample(a);
		if (err) {
			fprintf(stderr, "ebpftop: cannot sample BPF programs: %s\n",
				strerror(-err));
			break;
		}
		n = view_rows(a, &view, &cap);
		if (o->json)
			batch_print_json(stdout, &a->snap, view, n);
		else
			batch_print_text(stdout, &a->snap, view, n);
		if (fflush(stdout) || ferror(stdout)) {
			/* The reader went away (EPIPE): that is how pipes end. */
			if (errno != EPIPE) {
				fprintf(stderr, "ebpftop: write error: %s\n",
					strerror(errno));
				err = -errno;
			}
			break;
		}
		if (o->iterations && i + 1 >= o->iterations)
			break;
		next += (unsigned long long)(o->delay_s * 1e9);
		app_sleep_until(next);
	}
	free(view);
	return err;
}

int main(int argc, char **argv)
{
	struct ebpftop_opts opts;
	char msg[256];
	struct app app;
	int action, err;

	action = cli_parse(argc, argv, &opts, msg, sizeof(msg));
	if (action < 0) {
		fprintf(stderr, "ebpftop: %s\n", msg);
		return 2;
	}
	if (action == CLI_HELP) {
		cli_usage(stdout);
		return 0;
	}
	if (action == CLI_VERSION) {
		printf("ebpftop %s\n", PACKAGE_VERSION);
		return 0;
	}

	app_signals_init(opts.batch ? NULL : tui_emergency_restore);
	err = app_init(&app, &opts, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "ebpftop: %s\n", msg);
		return 1;
	}
	err = opts.batch ? run_batch(&app) : tui_run(&app);
	app_fini(&app);
	return err ? 1 : 0;
}
