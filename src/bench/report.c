// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "bench/report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

char *bench_fmt_count(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v >= 1e9)
		snprintf(buf, len, "%.1f G", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.1f M", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.0f k", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static char *fmt_ns(char *buf, size_t len, double ns)
{
	if (!isfinite(ns))
		snprintf(buf, len, "-");
	else if (fabs(ns) >= 100)
		snprintf(buf, len, "%.0f", ns);
	else
		snprintf(buf, len, "%.1f", ns);
	return buf;
}

/* "XDP_PASS 200, XDP_DROP 56" into @buf. */
static void fmt_retvals(char *buf, size_t len, const struct bench_prog *p)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < p->nr_retvals && o < len; i++) {
		const char *name = bench_retval_name(p->type, p->retvals[i].code);

		if (name)
			o += (size_t)snprintf(buf + o, len - o, "%s%s %" PRIu64,
					      i ? ", " : "", name,
					      p->retvals[i].packets);
		else
			o += (size_t)snprintf(buf + o, len - o,
					      "%s%" PRId64 ": %" PRIu64,
					      i ? ", " : "", p->retvals[i].code,
					      p->retvals[i].packets);
	}
	if (p->retvals_other && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", other %" PRIu64,
				      p->retvals_other);
	if (p->retvals_vary && o < len)
		snprintf(buf + o, len - o, " (varies between rounds)");
}

static void header(FILE *f, const struct bench_result *r, enum bench_format fmt)
{
	const char *pre = fmt == BENCH_MARKDOWN ? "" : "# ";

	if (fmt == BENCH_MARKDOWN)
		fprintf(f, "### ebpftop %s: %s\n\n", r->mode,
			*r->object ? r->object : "live programs");
	else
		fprintf(f, "%sebpftop %s %s: %s\n", pre, r->version, r->mode,
			*r->object ? r->object : "live programs");
	fprintf(f, "%s%s, %s, %s%s\n", pre, r->kernel, r->cpu, r->date,
		fmt == BENCH_MARKDOWN ? "  " : "");
	if (*r->input)
		fprintf(f, "%s%s%s\n", pre, r->input,
			fmt == BENCH_MARKDOWN ? "  " : "");
	if (fmt == BENCH_MARKDOWN)
		fprintf(f, "\n");
}

void bench_report_results(FILE *f, const struct bench_result *r,
			  enum bench_format fmt)
{
	bool any_skipped = false;

	header(f, r, fmt);
	if (fmt == BENCH_MARKDOWN)
		fprintf(f, "| program | type | ns/run (median) | min–max | floor | runs | return codes |\n"
			   "|---|---|--:|--:|--:|--:|---|\n");
	else
		fprintf(f, "%-24s %-14s %9s %17s %7s %9s  %s\n", "PROGRAM",
			"TYPE", "NS/RUN", "MIN-MAX", "FLOOR", "RUNS",
			"RETURN CODES (packets)");
	for (size_t i = 0; i < r->nr_progs; i++) {
		const struct bench_prog *p = &r->progs[i];
		struct bench_summary s, fl;
		char med[32], lo[32], hi[32], flo[32], runs[32], codes[512];
		char range[72];

		if (!p->ran || !p->nr_rounds) {
			any_skipped = true;
			continue;
		}
		bench_summarize(p->ns, p->nr_rounds, &s);
		bench_summarize(p->floor_ns, p->nr_floor, &fl);
		fmt_ns(med, sizeof(med), s.median);
		snprintf(range, sizeof(range), "%s-%s", fmt_ns(lo, sizeof(lo), s.min),
			 fmt_ns(hi, sizeof(hi), s.max));
		fmt_ns(flo, sizeof(flo), fl.median);
		bench_fmt_count(runs, sizeof(runs), bench_prog_total_runs(p));
		fmt_retvals(codes, sizeof(codes), p);
		if (fmt == BENCH_MARKDOWN)
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n",
				p->name, p->type, med, range, flo, runs,
				*codes ? codes : "-");
		else
			fprintf(f, "%-24s %-14s %9s %17s %7s %9s  %s\n", p->name,
				p->type, med, range, flo, runs,
				*codes ? codes : "-");
	}
	if (!any_skipped)
		return;
	fprintf(f, fmt == BENCH_MARKDOWN ? "\nNot benchmarked:\n\n" :
					   "not benchmarked:\n");
	for (size_t i = 0; i < r->nr_progs; i++) {
		const struct bench_prog *p = &r->progs[i];

		if (!p->ran || !p->nr_rounds)
			fprintf(f, "%s%s (%s): %s\n",
				fmt == BENCH_MARKDOWN ? "- " : "  ", p->name,
				p->type, p->reason);
	}
}

void bench_report_compare(FILE *f, const struct bench_result *base,
			  const struct bench_judgement *j, size_t n,
			  double threshold_pct, enum bench_format fmt)
{
	size_t nreg = bench_count(j, n, BENCH_REGRESSED);
	unsigned int left_out = 0;
	bool differ = false;

	if (fmt == BENCH_MARKDOWN)
		fprintf(f, "\n### Against the baseline of %s (%s)\n\n"
			   "| program | type | baseline ns/run | now ns/run | above floor | change | noise ± | p | verdict |\n"
			   "|---|---|--:|--:|--:|--:|--:|--:|---|\n",
			base->date, base->kernel);
	else
		fprintf(f, "# against the baseline of %s (%s, %s)\n"
			   "%-24s %-14s %9s %9s %15s %8s %7s %8s  %s\n",
			base->date, base->kernel, base->cpu, "PROGRAM", "TYPE",
			"BASELINE", "NOW", "ABOVE-FLOOR", "CHANGE", "NOISE", "P",
			"VERDICT");
	for (size_t i = 0; i < n; i++) {
		const struct bench_judgement *x = &j[i];
		const struct bench_prog *p = x->now ? x->now : x->base;
		char b[32], c[32], nb[32], nc[32], net[72], ch[32], no[32], pv[32];
		const char *v = bench_verdict_str(x->verdict);

		left_out += x->rounds_left_out;
		differ |= x->stats_differ;
		fmt_ns(b, sizeof(b), x->base_ns);
		fmt_ns(c, sizeof(c), x->now_ns);
		if (x->net)
			snprintf(net, sizeof(net), "%s->%s",
				 fmt_ns(nb, sizeof(nb), x->base_net),
				 fmt_ns(nc, sizeof(nc), x->now_net));
		else
			snprintf(net, sizeof(net), "-");
		if (isfinite(x->change_pct))
			snprintf(ch, sizeof(ch), "%+.1f%%", x->change_pct);
		else
			snprintf(ch, sizeof(ch), "-");
		if (isfinite(x->noise_pct))
			snprintf(no, sizeof(no), "%.1f%%", x->noise_pct);
		else
			snprintf(no, sizeof(no), "-");
		if (isfinite(x->p_worse))
			snprintf(pv, sizeof(pv), "%.2g",
				 x->change_pct >= 0 ? x->p_worse : x->p_better);
		else
			snprintf(pv, sizeof(pv), "-");
		if (fmt == BENCH_MARKDOWN)
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s%s%s |\n",
				p->name, p->type, b, c, net, ch, no, pv,
				x->verdict == BENCH_REGRESSED ? "**" : "", v,
				x->verdict == BENCH_REGRESSED ? "**" : "");
		else
			fprintf(f, "%-24s %-14s %9s %9s %15s %8s %7s %8s  %s\n",
				p->name, p->type, b, c, net, ch, no, pv,
				x->verdict == BENCH_REGRESSED ? "REGRESSED" : v);
	}
	if (left_out)
		fprintf(f, "%s%u rounds left out: BPF run-time stats were turned on or off during them, or differ from the rounds compared\n",
			fmt == BENCH_MARKDOWN ? "\n" : "# ", left_out);
	if (differ)
		fprintf(f, "%sBPF run-time stats were on in one run and off in the other: changes are counted against the dearer run's ns/run\n",
			fmt == BENCH_MARKDOWN ? "\n" : "# ");
	fprintf(f, "%s%zu regressed, %zu improved, %zu unchanged, %zu new, %zu missing (change of the cost above the floor in %% of the baseline ns/run; threshold %.0f%%, one-sided Mann-Whitney p < %.2g)\n",
		fmt == BENCH_MARKDOWN ? "\n" : "# ", nreg,
		bench_count(j, n, BENCH_IMPROVED),
		bench_count(j, n, BENCH_UNCHANGED), bench_count(j, n, BENCH_NEW),
		bench_count(j, n, BENCH_MISSING), threshold_pct, BENCH_ALPHA);
}
