// SPDX-License-Identifier: GPL-2.0-only
/* ebpftop: top for BPF programs. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sort.h"
#include "app.h"
#include "bench/gate.h"
#include "cli.h"
#include "demo/demo.h"
#include "hot/session.h"
#include "export/exporter.h"
#include "output/batch.h"
#include "profiler/events.h"
#include "ui/tui.h"
#include "util/clock.h"

/* What a record carries besides the programs: the demo's state. */
static void batch_extras(struct app *a, struct batch_extra *x,
			 struct batch_demo *d)
{
	uint64_t counts[DEMO__CLASSES] = { 0 };

	memset(x, 0, sizeof(*x));
	if (!app__demo(a))
		return;
	memset(d, 0, sizeof(*d));
	d->regressed = demo__regressed(app__demo(a));
	d->prog_id = demo__prog_id(app__demo(a));
	demo__counts(app__demo(a), counts);	/* zeros if the map cannot be read */
	for (int c = 0; c < DEMO__CLASSES && c < BATCH_DEMO_CLASSES_MAX; c++) {
		d->names[c] = demo_class_name((enum demo_class)c);
		d->counts[c] = counts[c];
		d->nr_classes++;
	}
	x->demo = d;
}

static int run_batch(struct app *a, struct live_gate *gate)
{
	const struct ebpftop_opts *o = app__opts(a);
	unsigned long long next = mono_now_ns();
	struct prog_row *view = NULL;
	struct batch_extra extra;
	struct batch_demo demo;
	size_t cap = 0;
	int err = 0;

	/*
	 * One write per refresh rather than per line (10,000 programs are
	 * 10,000 lines), flushed at the end of every refresh so readers see
	 * each one whole and at once.
	 */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	for (unsigned long i = 0; !app_quit; i++) {
		const char *msg;
		size_t n;

		err = app__sample(a);
		if (err) {
			fprintf(stderr, "ebpftop: cannot sample BPF programs: %s\n",
				strerror(-err));
			break;
		}
		if (app__profile_msg(a)[0]) {
			/* The profiled program went away: say so, go on. */
			fprintf(stderr, "ebpftop: %s\n", app__profile_msg(a));
			app__profile_msg_clear(a);
		}
		if (app__hot_msg(a)[0]) {
			/* The sampled program went away: say so, go on. */
			fprintf(stderr, "ebpftop: %s\n", app__hot_msg(a));
			app__hot_msg_clear(a);
		}
		if (rows_view(app__snapshot(a), o->filter, o->sort, &view, &cap, &n)) {
			fprintf(stderr, "ebpftop: out of memory\n");
			err = -ENOMEM;
			break;
		}
		msg = exporter__take_error(app__exporter(a));
		if (msg)
			fprintf(stderr, "ebpftop: %s\n", msg);
		batch_extras(a, &extra, &demo);
		live_gate__refresh(gate, app__snapshot(a), view, n);
		if (o->bmf || o->quiet)
			;	/* stdout is for the Bencher Metric Format at the end, or for nothing (-q) */
		else if (o->json)
			batch_print_json_x(stdout, app__snapshot(a), view, n, &extra);
		else
			batch_print_text_x(stdout, app__snapshot(a), view, n, &extra);
		if (fflush(stdout) || ferror(stdout)) {
			/*
			 * The reader went away (EPIPE): that is how pipes end.
			 * A quit signal that interrupts a write blocked on a
			 * slow reader (a large record) ends the run as asked.
			 */
			if (errno != EPIPE && !(errno == EINTR && app_quit)) {
				fprintf(stderr, "ebpftop: write error: %s\n",
					strerror(errno));
				err = -errno;
			}
			break;
		}
		if (o->iterations && i + 1 >= o->iterations)
			break;
		next += (unsigned long long)(o->delay_s * 1e9);
		/* Fell behind (stopped, or a slow refresh): do not burst. */
		if (next <= mono_now_ns())
			next = mono_now_ns() + (unsigned long long)(o->delay_s * 1e9);
		app_sleep_until(next);
	}
	free(view);
	return err;
}

/*
 * The end of a run that only prints (--help, --version, --list-events):
 * what could not be written (a full disk, a closed stdout) is a failure,
 * as in batch mode. Returns the exit status.
 */
static int stdout_done(const char *what)
{
	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	fprintf(stderr, "ebpftop: %s: write error: %s\n", what,
		strerror(errno ? errno : EIO));
	return 1;
}

int main(int argc, char **argv)
{
	struct exporter *exporter;
	struct ebpftop_opts opts;
	char msg[256];
	struct live_gate *gate = NULL;
	struct app *app;
	int action, err, status;

	action = cli_parse(argc, argv, &opts, msg, sizeof(msg));
	if (action < 0) {
		fprintf(stderr, "ebpftop: %s\n", msg);
		return 2;
	}
	if (action == CLI_HELP) {
		errno = 0;
		cli_usage(stdout);
		return stdout_done("--help");
	}
	if (action == CLI_VERSION) {
		errno = 0;
		printf("ebpftop %s\n", PACKAGE_VERSION);
		return stdout_done("--version");
	}
	if (action == CLI_LIST_EVENTS) {
		errno = 0;
		if (events_list(stdout, msg, sizeof(msg))) {
			fprintf(stderr, "ebpftop: --list-events: %s\n", msg);
			return 1;
		}
		return stdout_done("--list-events");
	}
	if (opts.events) {
		/* Event names are usage: a bad one stops us before anything starts. */
		struct event_set set;

		err = events_parse(opts.events, &set, msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "ebpftop: --events: %s\n", msg);
			return err == -ELIBACC ? 1 : 2;	/* no libpfm4 here */
		}
	}
	if (opts.sample_event) {
		err = hot_event_check(opts.sample_event, msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "ebpftop: --sample-event: %s\n", msg);
			return err == -ELIBACC ? 1 : 2;
		}
	}

	if (opts.bench)
		return bench_main(&opts);
	if (opts.batch && (opts.bmf || opts.record || opts.compare)) {
		err = live_gate__new(&opts, NULL, &gate, msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "ebpftop: %s\n",
				err == -EINVAL ? msg : strerror(-err));
			return err == -EINVAL ? 2 : 1;
		}
	}

	/* Bind --listen first: a port in use stops us before anything loads. */
	err = exporter__new(&exporter, opts.listen ? &opts.listen_addr : NULL,
			    opts.prom_file, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "ebpftop: %s\n", msg);
		return err == -EINVAL ? 2 : 1;
	}
	app_signals_init(opts.batch ? NULL : tui_emergency_restore);
	err = app__new(&app, &opts, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "ebpftop: %s\n", msg);
		exporter__free(exporter);
		live_gate__free(gate);
		return 1;
	}
	app__set_exporter(app, exporter);
	/* Batch exits; the TUI shows why in its profile pane and runs on. */
	if (opts.profile_id &&
	    app__profile_start(app, opts.profile_id, msg, sizeof(msg)) &&
	    opts.batch) {
		fprintf(stderr, "ebpftop: %s\n", msg);
		app__free(app);
		exporter__free(exporter);
		live_gate__free(gate);
		return 1;
	}
	if (opts.hot_id &&
	    app__hot_start(app, opts.hot_id, msg, sizeof(msg)) && opts.batch) {
		fprintf(stderr, "ebpftop: %s\n", msg);
		app__free(app);
		exporter__free(exporter);
		live_gate__free(gate);
		return 1;
	}
	err = opts.batch ? run_batch(app, gate) : tui_run(app);
	app__free(app);
	exporter__free(exporter);
	status = err ? 1 : 0;
	if (gate && !err) {
		/* The measured rounds: BMF, baseline, verdicts (exit 3). */
		status = live_gate__finish(gate);
	}
	live_gate__free(gate);
	return status;
}
