// SPDX-License-Identifier: GPL-2.0-only
/* The lines above the table: header, regression banner, demo line, status. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/columns.h"
#include "analysis/format.h"
#include "analysis/regress.h"
#include "ui/colors.h"
#include "ui/draw.h"
#include "ui/parts.h"

void header_draw(const struct tui_state *t, int y)
{
	const struct snapshot *s = app__snapshot(t->app);
	char line[CELL_MAX], pct[32];

	if (y < 0)
		return;
	if (isnan(snapshot_total_share(s)))
		snprintf(pct, sizeof(pct), "-");
	else
		snprintf(pct, sizeof(pct), "%.2f%%",
			 snapshot_total_share(s));
	/* Narrower screens get shorter forms; the kernel goes last. */
	for (int pass = 0; pass < 4; pass++) {
		const char *k = s->kernel ? s->kernel : "?";
		const char *st = stats_state_str(t->stats);

		if (pass == 0)
			snprintf(line, sizeof(line),
				 "ebpftop %s  kernel %s  stats: %s  programs: %zu (%zu shown)  BPF CPU: %s of %u CPUs",
				 PACKAGE_VERSION, k, st, s->nr_rows, t->nview,
				 pct, s->ncpus);
		else if (pass == 1)
			snprintf(line, sizeof(line),
				 "kernel %s  stats: %s  programs: %zu (%zu shown)  BPF CPU: %s of %u CPUs",
				 k, st, s->nr_rows, t->nview, pct, s->ncpus);
		else if (pass == 2)
			snprintf(line, sizeof(line),
				 "kernel %s  stats: %s  progs: %zu/%zu  cpu: %s/%u",
				 k, st, t->nview, s->nr_rows, pct, s->ncpus);
		else
			snprintf(line, sizeof(line),
				 "stats: %s  progs: %zu/%zu  cpu: %s/%u", st,
				 t->nview, s->nr_rows, pct, s->ncpus);
		if ((int)strlen(line) <= COLS)
			break;
	}
	draw_text(y, 0, COLS, color(ROLE_HEADER), line, false, draw_ellipsis(t->utf8));
}

/* The worst regression among the rows shown, and how many there are. */
const struct prog_row *banner_worst(const struct tui_state *t, size_t *count)
{
	const struct prog_row *worst = NULL;

	*count = 0;
	for (size_t i = 0; i < t->nview; i++) {
		const struct prog_row *r = &t->view[i];

		if (!r->reg.active)
			continue;
		(*count)++;
		if (!worst || r->reg.change_pct > worst->reg.change_pct)
			worst = r;
	}
	return worst;
}

/* "REGRESSION: name +240% ns/run (+2 more)", only while one is flagged. */
void banner_draw(const struct tui_state *t, int y)
{
	const struct prog_row *w;
	char line[CELL_MAX], chg[32], more[32] = "", when[16];
	size_t k;

	if (y < 0)
		return;
	w = banner_worst(t, &k);
	if (!w)
		return;
	if (k > 1)
		snprintf(more, sizeof(more), " (+%zu more)", k - 1);
	fmt_clock(when, sizeof(when), w->reg.since);
	snprintf(line, sizeof(line),
		 "REGRESSION: %s %s ns/run%s  since %s: %.1f ns, baseline %.1f ns  (l: event log)",
		 display_name(w->s),
		 regress_fmt_change(chg, sizeof(chg), w->reg.change_pct), more,
		 when, w->reg.current_ns, w->reg.baseline_ns);
	draw_fill(y, 0, COLS, color(ROLE_BANNER));
	draw_text(y, 0, COLS, color(ROLE_BANNER), line, false, draw_ellipsis(t->utf8));
}

/* The demo's class counters and its switch. */
void demo_line_draw(const struct tui_state *t, int y)
{
	struct demo *d = app__demo(t->app);
	char line[CELL_MAX];
	size_t off;

	if (y < 0 || !d)
		return;
	off = (size_t)snprintf(line, sizeof(line), "demo: program %" PRIu32,
			       demo__prog_id(d));
	for (int c = 0; c < DEMO__CLASSES && off < sizeof(line); c++) {
		int n;

		if (t->demo_ok)
			n = snprintf(line + off, sizeof(line) - off,
				     "  %s %" PRIu64,
				     demo_class_name((enum demo_class)c),
				     t->demo_counts[c]);
		else
			n = snprintf(line + off, sizeof(line) - off, "  %s ?",
				     demo_class_name((enum demo_class)c));
		if (n < 0)
			break;
		off += (size_t)n;
	}
	if (off < sizeof(line))
		snprintf(line + off, sizeof(line) - off,
			 "  regressed: %s  (R lands/reverts)",
			 demo__regressed(d) ? "yes" : "no");
	draw_text(y, 0, COLS, color(ROLE_STATUS), line, false, draw_ellipsis(t->utf8));
}

/* The status line; returns the cursor column when the prompt is open. */
int status_draw(const struct tui_state *t, int y, unsigned long long now)
{
	const char *ell = draw_ellipsis(t->utf8);
	char buf[TUI_FILTER_MAX + 64];
	int x = 0;

	if (y < 0)
		return -1;
	if (t->editing) {
		draw_seg(y, &x, color(ROLE_MESSAGE),
			 "filter (Enter keeps, Esc clears): ", ell);
		draw_seg(y, &x, color(ROLE_STATUS), t->filter, ell);
		return x < COLS ? x : COLS - 1;
	}
	snprintf(buf, sizeof(buf), "sort: %s", col_sort_name(t->sort));
	if (!draw_seg(y, &x, color(ROLE_STATUS), buf, ell))
		return -1;
	if (t->filter[0]) {
		snprintf(buf, sizeof(buf), "  filter: %s", t->filter);
		if (!draw_seg(y, &x, color(ROLE_STATUS), buf, ell))
			return -1;
	}
	if (t->paused && !draw_seg(y, &x, color(ROLE_MESSAGE), "  PAUSED", ell))
		return -1;
	if (t->msg[0] && now < t->msg_until) {
		if (!draw_seg(y, &x, color(ROLE_STATUS), "  ", ell))
			return -1;
		draw_seg(y, &x, color(ROLE_MESSAGE), t->msg, ell);
	}
	return -1;
}
