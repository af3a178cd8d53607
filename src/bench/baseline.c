// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "bench/baseline.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include <json-c/json.h>

#include "output/json_writer.h"

static void write_prog(struct jw *w, const struct bench_prog *p)
{
	struct bench_summary s;

	jw_begin_object(w);
	jw_string_field(w, "name", p->name);
	jw_string_field(w, "type", p->type);
	jw_bool_field(w, "ran", p->ran);
	jw_string_field(w, "reason", p->ran ? NULL : p->reason);
	if (!p->ran) {
		jw_end_object(w);
		return;
	}
	bench_summarize(p->ns, p->nr_rounds, &s);
	jw_double_field(w, "median_ns", s.median);
	jw_double_field(w, "min_ns", s.min);
	jw_double_field(w, "max_ns", s.max);
	jw_uint_field(w, "packets", p->packets);
	jw_key(w, "rounds");
	jw_begin_array(w);
	for (unsigned int i = 0; i < p->nr_rounds; i++) {
		jw_begin_object(w);
		jw_double_field(w, "ns_per_run", p->ns[i]);
		jw_double_field(w, "runs", p->runs[i]);
		jw_string_field(w, "stats", bench_stats_str(p->stats[i]));
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_key(w, "floor_rounds");
	jw_begin_array(w);
	for (unsigned int i = 0; i < p->nr_floor; i++)
		jw_double(w, p->floor_ns[i]);
	jw_end_array(w);
	jw_key(w, "retvals");
	jw_begin_array(w);
	for (unsigned int i = 0; i < p->nr_retvals; i++) {
		jw_begin_object(w);
		jw_double_field(w, "code", (double)p->retvals[i].code);
		jw_string_field(w, "name",
				bench_retval_name(p->type, p->retvals[i].code));
		jw_uint_field(w, "packets", p->retvals[i].packets);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

int baseline_write(FILE *f, const struct bench_result *r)
{
	struct jw w;

	jw_init(&w, f);
	jw_begin_object(&w);
	jw_string_field(&w, "format", BASELINE_FORMAT);
	jw_uint_field(&w, "format_version", BASELINE_VERSION);
	jw_string_field(&w, "mode", r->mode);
	jw_string_field(&w, "object", r->object);
	jw_string_field(&w, "input", r->input);
	jw_string_field(&w, "ebpftop_version", r->version);
	jw_string_field(&w, "kernel", r->kernel);
	jw_string_field(&w, "cpu", r->cpu);
	jw_string_field(&w, "date", r->date);
	jw_uint_field(&w, "round_ms", r->round_ms);
	jw_key(&w, "programs");
	jw_begin_array(&w);
	for (size_t i = 0; i < r->nr_progs; i++)
		write_prog(&w, &r->progs[i]);
	jw_end_array(&w);
	jw_end_object(&w);
	fputc('\n', f);
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* ---- reading ------------------------------------------------------------- */

static int bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool get_num(json_object *o, const char *key, double *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

static void copy_str(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

static int read_prog(json_object *o, size_t idx, struct bench_result *r,
		     char *err, size_t errlen)
{
	const char *name = get_str(o, "name"), *type = get_str(o, "type");
	json_object *v, *rounds, *floor, *rv;
	struct bench_prog *p;
	double packets = 0;

	if (!name || !type || !*name || !*type)
		return bad(err, errlen, "program %zu has no name or type", idx);
	if (bench_result_find(r, name, type))
		return bad(err, errlen, "program '%s' (%s) is there twice", name, type);
	p = bench_result_add(r, name, type);
	if (!p)
		return -ENOMEM;
	if (!json_object_object_get_ex(o, "ran", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return bad(err, errlen, "program '%s' has no \"ran\"", name);
	p->ran = json_object_get_boolean(v);
	if (!p->ran) {
		copy_str(p->reason, sizeof(p->reason), get_str(o, "reason"));
		return 0;
	}
	if (!json_object_object_get_ex(o, "rounds", &rounds) ||
	    !json_object_is_type(rounds, json_type_array) ||
	    !json_object_array_length(rounds))
		return bad(err, errlen, "program '%s' has no rounds", name);
	for (size_t i = 0; i < json_object_array_length(rounds); i++) {
		json_object *e = json_object_array_get_idx(rounds, i);
		enum bench_stats st = BENCH_STATS_MIXED;
		const char *s;
		double ns, runs;

		if (!json_object_is_type(e, json_type_object) ||
		    !get_num(e, "ns_per_run", &ns) || !(ns > 0) ||
		    !get_num(e, "runs", &runs) || !(runs > 0))
			return bad(err, errlen,
				   "program '%s': round %zu is not {\"ns_per_run\": >0, \"runs\": >0}",
				   name, i + 1);
		s = get_str(e, "stats");
		if (s && !strcmp(s, "off"))
			st = BENCH_STATS_OFF;
		else if (s && !strcmp(s, "on"))
			st = BENCH_STATS_ON;
		if (bench_prog_add_round(p, ns, runs, st))
			return -ENOMEM;
	}
	if (json_object_object_get_ex(o, "floor_rounds", &floor) &&
	    json_object_is_type(floor, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(floor); i++) {
			json_object *e = json_object_array_get_idx(floor, i);
			double ns = json_object_get_double(e);

			if (!(json_object_is_type(e, json_type_double) ||
			      json_object_is_type(e, json_type_int)) ||
			    !isfinite(ns) || ns < 0)
				return bad(err, errlen,
					   "program '%s': floor round %zu is not a number",
					   name, i + 1);
			if (bench_prog_add_floor(p, ns))
				return -ENOMEM;
		}
	}
	if (get_num(o, "packets", &packets) && packets >= 0)
		p->packets = (uint64_t)packets;
	if (json_object_object_get_ex(o, "retvals", &rv) &&
	    json_object_is_type(rv, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(rv) &&
				   p->nr_retvals < BENCH_RETVALS_MAX; i++) {
			json_object *e = json_object_array_get_idx(rv, i);
			double code, n;

			if (!get_num(e, "code", &code) || !get_num(e, "packets", &n))
				return bad(err, errlen,
					   "program '%s': return code %zu is not {\"code\", \"packets\"}",
					   name, i + 1);
			p->retvals[p->nr_retvals].code = (int64_t)code;
			p->retvals[p->nr_retvals++].packets = (uint64_t)n;
		}
	}
	return 0;
}

int baseline_read(const char *path, struct bench_result *r, char *err,
		  size_t errlen)
{
	json_object *root, *progs, *v;
	const char *fmt, *mode;
	double ver, ms;
	int ret = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return ret;
	}
	fclose(f);
	root = json_object_from_file(path);
	if (!root) {
		const char *why = json_util_get_last_err();

		/* json-c's message ends in a newline: one line is wanted. */
		return bad(err, errlen, "'%s' is not JSON (%.*s)", path,
			   why ? (int)strcspn(why, "\n") : 11,
			   why ? why : "parse error");
	}
	fmt = get_str(root, "format");
	if (!json_object_is_type(root, json_type_object) || !fmt ||
	    strcmp(fmt, BASELINE_FORMAT)) {
		ret = bad(err, errlen, "'%s' is not an ebpftop baseline (no \"format\": \"%s\")",
			  path, BASELINE_FORMAT);
		goto out;
	}
	if (!get_num(root, "format_version", &ver) || ver != BASELINE_VERSION) {
		ret = bad(err, errlen, "'%s': baseline format version is not %d",
			  path, BASELINE_VERSION);
		goto out;
	}
	mode = get_str(root, "mode");
	if (!mode || (strcmp(mode, "bench") && strcmp(mode, "live"))) {
		ret = bad(err, errlen, "'%s': \"mode\" is not \"bench\" or \"live\"", path);
		goto out;
	}
	copy_str(r->mode, sizeof(r->mode), mode);
	copy_str(r->object, sizeof(r->object), get_str(root, "object"));
	copy_str(r->input, sizeof(r->input), get_str(root, "input"));
	copy_str(r->version, sizeof(r->version), get_str(root, "ebpftop_version"));
	copy_str(r->kernel, sizeof(r->kernel), get_str(root, "kernel"));
	copy_str(r->cpu, sizeof(r->cpu), get_str(root, "cpu"));
	copy_str(r->date, sizeof(r->date), get_str(root, "date"));
	if (get_num(root, "round_ms", &ms) && ms >= 0 && ms <= 1e6)
		r->round_ms = (unsigned int)ms;
	if (!json_object_object_get_ex(root, "programs", &progs) ||
	    !json_object_is_type(progs, json_type_array)) {
		ret = bad(err, errlen, "'%s': no \"programs\" array", path);
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(progs) && !ret; i++) {
		v = json_object_array_get_idx(progs, i);
		if (!json_object_is_type(v, json_type_object)) {
			ret = bad(err, errlen, "'%s': program %zu is not an object",
				  path, i + 1);
			break;
		}
		ret = read_prog(v, i + 1, r, err, errlen);
		if (ret == -EINVAL) {
			/* Say which file. */
			char tmp[256];

			snprintf(tmp, sizeof(tmp), "%s", err);
			snprintf(err, errlen, "'%s': %s", path, tmp);
		} else if (ret) {
			snprintf(err, errlen, "out of memory");
		}
	}
out:
	json_object_put(root);
	if (ret)
		bench_result_free(r);
	return ret;
}

/* ---- Bencher Metric Format ------------------------------------------------ */

static void bmf_measure(struct jw *w, const char *slug, double value,
			double lo, double hi)
{
	jw_key(w, slug);
	jw_begin_object(w);
	jw_double_field(w, "value", value);
	jw_double_field(w, "lower_value", lo);
	jw_double_field(w, "upper_value", hi);
	jw_end_object(w);
}

static bool name_shared(const struct bench_result *r, size_t i)
{
	for (size_t k = 0; k < r->nr_progs; k++)
		if (k != i && r->progs[k].ran && r->progs[k].nr_rounds &&
		    !strcmp(r->progs[k].name, r->progs[i].name))
			return true;
	return false;
}

int bmf_write(FILE *f, const struct bench_result *r)
{
	struct jw w;

	jw_init(&w, f);
	jw_begin_object(&w);
	for (size_t i = 0; i < r->nr_progs; i++) {
		const struct bench_prog *p = &r->progs[i];
		struct bench_summary s;
		char key[BENCH_NAME_MAX + 300];

		if (!p->ran || !p->nr_rounds)
			continue;
		bench_summarize(p->ns, p->nr_rounds, &s);
		snprintf(key, sizeof(key), "%s%s%s%s%s", r->object,
			 *r->object ? "/" : "", p->name,
			 name_shared(r, i) ? ":" : "",
			 name_shared(r, i) ? p->type : "");
		jw_key(&w, key);
		jw_begin_object(&w);
		bmf_measure(&w, "latency", s.median, s.min, s.max);
		bmf_measure(&w, "throughput", 1e9 / s.median, 1e9 / s.max,
			    1e9 / s.min);
		jw_end_object(&w);
	}
	jw_end_object(&w);
	fputc('\n', f);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
