// SPDX-License-Identifier: GPL-2.0-only
/*
 * The key table, --help and the man page agree: every key name of the
 * table is in the man page's KEYS section, every option of cli_options[]
 * is in its OPTIONS section and in cli_usage(), and the table itself is
 * consistent (help for every binding, no key bound twice).
 *
 * The man page comes from $EBPFTOP_MAN, or argv[1], or
 * $top_srcdir/man/ebpftop.8.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <curses.h>

#include "cli.h"
#include "ui/keymap.h"

static const char *man_path;
static char *man_text;

/* ---- reading the man page ------------------------------------------------ */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *s = NULL;
	size_t len = 0, n;
	char buf[4096];

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		char *t = realloc(s, len + n + 1);

		if (!t) {
			free(s);
			fclose(f);
			return NULL;
		}
		s = t;
		memcpy(s + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!s)
		s = calloc(1, 1);
	else
		s[len] = '\0';
	return s;
}

/* Whether roff line @line is ".SH NAME" (NAME quoted or not, any case). */
static bool is_section(const char *line, size_t len, const char *name)
{
	size_t nl = strlen(name);

	if (len < 4 || strncmp(line, ".SH", 3) || !isspace((unsigned char)line[3]))
		return false;
	line += 3;
	len -= 3;
	while (len && (isspace((unsigned char)*line) || *line == '"')) {
		line++;
		len--;
	}
	while (len && (isspace((unsigned char)line[len - 1]) ||
		       line[len - 1] == '"'))
		len--;
	return len == nl && !strncasecmp(line, name, nl);
}

/* The raw lines of section @name (malloc'd; NULL if there is none). */
static char *section(const char *text, const char *name)
{
	const char *p = text, *start = NULL;
	char *s;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (start && len >= 3 && !strncmp(p, ".SH", 3))
			break;
		if (!start && is_section(p, len, name))
			start = eol ? eol + 1 : p + len;
		p += len + (eol ? 1 : 0);
	}
	if (!start)
		return NULL;
	s = strndup(start, (size_t)(p - start));
	assert_non_null(s);
	return s;
}

/* Named roff characters that may stand for a key. */
static const struct {
	const char *name, *text;
} roff_chars[] = {
	{ "aq", "'" }, { "dq", "\"" }, { "lq", "\"" }, { "rq", "\"" },
	{ "la", "<" }, { "ra", ">" },	{ "rs", "\\" }, { "sl", "/" },
	{ "ti", "~" }, { "ha", "^" },	{ "em", "-" },	{ "en", "-" },
	{ "hy", "-" }, { "bu", "*" },	{ "sp", " " },	{ "ua", "Up" },
	{ "da", "Down" }, { "<-", "Left" }, { "->", "Right" },
};

static void put_named(char *out, size_t *o, const char *name, size_t nlen)
{
	for (size_t i = 0; i < sizeof(roff_chars) / sizeof(roff_chars[0]); i++) {
		if (strlen(roff_chars[i].name) == nlen &&
		    !strncmp(roff_chars[i].name, name, nlen)) {
			size_t l = strlen(roff_chars[i].text);

			memcpy(out + *o, roff_chars[i].text, l);
			*o += l;
			return;
		}
	}
	out[(*o)++] = ' ';
}

/*
 * Roff text as it reads: escapes resolved, font changes dropped, request
 * names dropped (their arguments kept, unquoted), comments dropped.
 * When @keep_minus, "\-" stays as it is (for matching options exactly).
 */
static char *plain(const char *roff, bool keep_minus)
{
	size_t len = strlen(roff), o = 0;
	char *out = malloc(len * 4 + 1);
	bool bol = true;

	assert_non_null(out);
	for (size_t i = 0; i < len;) {
		char c = roff[i];

		if (bol && (c == '.' || c == '\'')) {
			/* Comment lines go, request names go. */
			if (!strncmp(roff + i + 1, "\\\"", 2)) {
				while (i < len && roff[i] != '\n')
					i++;
				continue;
			}
			i++;
			while (i < len && !isspace((unsigned char)roff[i]))
				i++;
			out[o++] = ' ';
			bol = false;
			continue;
		}
		bol = false;
		if (c == '\n') {
			out[o++] = '\n';
			bol = true;
			i++;
			continue;
		}
		if (c == '"') {
			out[o++] = ' ';
			i++;
			continue;
		}
		if (c != '\\' || i + 1 >= len) {
			out[o++] = c;
			i++;
			continue;
		}
		c = roff[i + 1];
		i += 2;
		switch (c) {
		case 'f':	/* \fB \f(CW \f[B] */
			if (i < len && roff[i] == '(')
				i += 3;
			else if (i < len && roff[i] == '[')
				while (i < len && roff[i++] != ']')
					;
			else
				i++;
			break;
		case 's':	/* \s-1 \s0 \s+2 */
			if (i < len && (roff[i] == '-' || roff[i] == '+'))
				i++;
			while (i < len && isdigit((unsigned char)roff[i]))
				i++;
			break;
		case '(':
			put_named(out, &o, roff + i, 2);
			i += 2;
			break;
		case '[': {
			size_t s = i;

			while (i < len && roff[i] != ']')
				i++;
			put_named(out, &o, roff + s, i - s);
			i++;
			break;
		}
		case '*':	/* strings: \*(xx \*[xx] \*x */
			if (i < len && roff[i] == '(')
				i += 3;
			else if (i < len && roff[i] == '[')
				while (i < len && roff[i++] != ']')
					;
			else
				i++;
			break;
		case '-':
			if (keep_minus)
				out[o++] = '\\';
			out[o++] = '-';
			break;
		case 'e':
		case '\\':
			out[o++] = '\\';
			break;
		case '&':
		case '|':
		case '^':
		case 'c':
		case '\n':
			break;
		case ' ':
		case '~':
		case '0':
			out[o++] = ' ';
			break;
		default:
			out[o++] = c;
			break;
		}
	}
	out[o] = '\0';
	return out;
}

/* Whether @tok names key @name: exactly, or with sentence punctuation. */
static bool token_is(const char *tok, size_t len, const char *name)
{
	size_t nl = strlen(name);

	for (int pass = 0; pass < 2; pass++) {
		if (len == nl && (nl == 1 ? !strncmp(tok, name, nl) :
					    !strncasecmp(tok, name, nl)))
			return true;
		/* "(k)" "k," "k." "k;" "k:" name a key too. */
		if (len > 1 && *tok == '(') {
			tok++;
			len--;
		}
		if (len > 1 && strchr(".,;:)", tok[len - 1]))
			len--;
	}
	return false;
}

/* Whether @text has a token (split on blanks and commas) naming @name. */
static bool has_token(const char *text, const char *name)
{
	const char *p = text;

	while (*p) {
		size_t len;

		while (*p && (isspace((unsigned char)*p) || *p == ','))
			p++;
		len = 0;
		while (p[len] && !isspace((unsigned char)p[len]) &&
		       !(p[len] == ',' && len > 0))
			len++;
		if (!len)
			break;
		if (token_is(p, len, name))
			return true;
		p += len;
	}
	return false;
}

/*
 * Whether @s contains @needle not glued to a longer word: the byte before
 * is not a letter, digit or '-', and the text after does not continue the
 * word (a letter, digit, '-', or an escaped "\-").
 */
static bool has_word(const char *s, const char *needle)
{
	size_t nl = strlen(needle);

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) {
		const char *a = p + nl;

		if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '-'))
			continue;
		if (isalnum((unsigned char)*a) || *a == '-' ||
		    (a[0] == '\\' && a[1] == '-'))
			continue;
		return true;
	}
	return false;
}

/* "no-stats" -> "\-\-no\-stats"; 'd' -> "\-d". */
static void roff_option(char *buf, size_t len, const char *lng, char shrt)
{
	size_t o = 0;

	if (!lng) {
		snprintf(buf, len, "\\-%c", shrt);
		return;
	}
	o += (size_t)snprintf(buf, len, "\\-\\-");
	for (const char *p = lng; *p && o + 3 < len; p++) {
		if (*p == '-')
			buf[o++] = '\\';
		buf[o++] = *p;
	}
	buf[o] = '\0';
}

static int group_setup(void **state)
{
	const char *top = getenv("top_srcdir");
	static char path[4096];

	if (!man_path || !*man_path) {
		snprintf(path, sizeof(path), "%s/man/ebpftop.8",
			 top && *top ? top : ".");
		man_path = path;
	}
	man_text = slurp(man_path);
	if (!man_text) {
		fprintf(stderr, "cannot read the man page %s: %s\n", man_path,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	free(man_text);
	return 0;
}

/* ---- the key table ------------------------------------------------------- */

/* Key codes a key name must stand for. */
static bool name_matches_code(const char *name, int code)
{
	static const struct {
		const char *name;
		int code;
	} named[] = {
		{ "Up", KEY_UP },	   { "Down", KEY_DOWN },
		{ "Left", KEY_LEFT },	   { "Right", KEY_RIGHT },
		{ "PgUp", KEY_PPAGE },	   { "PgDn", KEY_NPAGE },
		{ "Home", KEY_HOME },	   { "End", KEY_END },
		{ "Enter", '\n' },	   { "Enter", '\r' },
		{ "Enter", KEY_ENTER },	   { "Space", ' ' },
		{ "Esc", 27 },		   { "Tab", '\t' },
		{ "Backspace", KEY_BACKSPACE }, { "Del", KEY_DC },
	};

	if (strlen(name) == 1)
		return code == (unsigned char)name[0];
	if (name[0] == 'F' && isdigit((unsigned char)name[1]))
		return code == KEY_F(atoi(name + 1));
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (!strcmp(named[i].name, name) && named[i].code == code)
			return true;
	}
	return false;
}

static int nr_keys(const struct key_binding *b)
{
	int n = 0;

	while (n < KEYMAP_MAX_KEYS && b->keys[n])
		n++;
	return n;
}

static int nr_names(const struct key_binding *b)
{
	int n = 0;

	while (n < KEYMAP_MAX_KEYS && b->names[n])
		n++;
	return n;
}

static void test_keymap_consistent(void **state)
{
	int bound[ACT__MAX] = { 0 };

	assert_true(keymap_len > 0);
	for (size_t i = 0; i < keymap_len; i++) {
		const struct key_binding *b = &keymap[i];
		int nk = nr_keys(b), nn = nr_names(b);

		if (!b->help || !b->help[0])
			fail_msg("binding %zu has no help text", i);
		if (!nk || !nn)
			fail_msg("binding %zu (%s) has no key or no name", i,
				 b->help);
		if ((int)b->action < 0 || b->action >= ACT__MAX)
			fail_msg("binding %zu has action %d", i, b->action);
		bound[b->action]++;
		/* Nothing after the terminator. */
		for (int k = nk; k < KEYMAP_MAX_KEYS; k++)
			assert_int_equal(b->keys[k], 0);
		for (int k = nn; k < KEYMAP_MAX_KEYS; k++)
			assert_null(b->names[k]);
		/* Each name stands for one of the binding's keys. */
		for (int n = 0; n < nn; n++) {
			bool ok = false;

			if (!b->names[n][0])
				fail_msg("binding %zu has an empty key name", i);
			for (int k = 0; k < nk; k++)
				ok |= name_matches_code(b->names[n], b->keys[k]);
			if (!ok)
				fail_msg("key name \"%s\" matches none of its binding's keys",
					 b->names[n]);
		}
		/* Each key has a name that shows it (Enter covers its codes). */
		for (int k = 0; k < nk; k++) {
			bool ok = false;

			for (int n = 0; n < nn; n++)
				ok |= name_matches_code(b->names[n], b->keys[k]);
			if (!ok)
				fail_msg("key code %#x of \"%s\" has no name on the help screen",
					 b->keys[k], b->names[0]);
			assert_int_equal(keymap_lookup(b->keys[k]), b->action);
		}
	}
	for (int a = 0; a < ACT__MAX; a++) {
		if (bound[a] != 1)
			fail_msg("action %d has %d bindings, want 1", a, bound[a]);
	}
	assert_int_equal(keymap_lookup(KEY_MAX + 1), ACT_NONE);
	assert_int_equal(keymap_lookup(0), ACT_NONE);
	assert_int_equal(keymap_lookup(-1), ACT_NONE);
}

static void test_no_key_bound_twice(void **state)
{
	for (size_t i = 0; i < keymap_len; i++) {
		for (size_t j = 0; j < keymap_len; j++) {
			const struct key_binding *a = &keymap[i], *b = &keymap[j];

			for (int k = 0; k < nr_keys(a); k++) {
				for (int l = 0; l < nr_keys(b); l++) {
					if ((i != j || k != l) &&
					    a->keys[k] == b->keys[l])
						fail_msg("key %#x is bound twice (\"%s\" and \"%s\")",
							 a->keys[k], a->help,
							 b->help);
				}
			}
			for (int k = 0; k < nr_names(a); k++) {
				for (int l = 0; l < nr_names(b); l++) {
					if ((i != j || k != l) &&
					    !strcmp(a->names[k], b->names[l]))
						fail_msg("key name \"%s\" is used twice",
							 a->names[k]);
				}
			}
		}
	}
}

/* ---- the man page -------------------------------------------------------- */

static void test_man_keys(void **state)
{
	char *raw = section(man_text, "KEYS"), *text;
	char missing[512] = "";

	if (!raw)
		fail_msg("%s has no KEYS section (.SH KEYS)", man_path);
	text = plain(raw, false);
	for (size_t i = 0; i < keymap_len; i++) {
		for (int n = 0; n < nr_names(&keymap[i]); n++) {
			if (!has_token(text, keymap[i].names[n]))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 " \"%s\"", keymap[i].names[n]);
		}
	}
	free(text);
	free(raw);
	if (missing[0])
		fail_msg("keys missing from the KEYS section of %s:%s", man_path,
			 missing);
}

static void test_man_options(void **state)
{
	char *raw = section(man_text, "OPTIONS"), *text;
	char missing[1024] = "", want[64];

	if (!raw)
		fail_msg("%s has no OPTIONS section (.SH OPTIONS)", man_path);
	/* Font changes dropped, "\-" kept: options must be written \-\-name. */
	text = plain(raw, true);
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];

		roff_option(want, sizeof(want), o->long_name, 0);
		if (!has_word(text, want))
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), " %s", want);
		if (o->short_name) {
			roff_option(want, sizeof(want), NULL, o->short_name);
			if (!has_word(text, want))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 " %s", want);
		}
	}
	free(text);
	free(raw);
	if (missing[0])
		fail_msg("options missing from the OPTIONS section of %s (written as in roff):%s",
			 man_path, missing);
}

static void test_man_sections(void **state)
{
	/* The sections every ebpftop(8) has (HACKING.md, "Documentation"). */
	static const char *const want[] = { "NAME", "SYNOPSIS", "DESCRIPTION",
					    "OPTIONS", "KEYS", "FIELDS",
					    "OVERHEAD", "EXAMPLES", "SEE ALSO" };
	char missing[256] = "";

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *s = section(man_text, want[i]);

		if (!s)
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), " \"%s\"",
				 want[i]);
		free(s);
	}
	if (missing[0])
		fail_msg("%s lacks sections:%s", man_path, missing);
}

static void test_usage_options(void **state)
{
	char *s = NULL, missing[512] = "", want[64];
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	cli_usage(f);
	assert_int_equal(fclose(f), 0);
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];

		snprintf(want, sizeof(want), "--%s", o->long_name);
		if (!has_word(s, want))
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), " %s", want);
		if (o->short_name) {
			snprintf(want, sizeof(want), "-%c", o->short_name);
			if (!has_word(s, want))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 " %s", want);
		}
		/* Options with an argument show its name. */
		if (o->arg) {
			snprintf(want, sizeof(want), "--%s %s", o->long_name,
				 o->arg);
			if (!strstr(s, want))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 " \"%s\"", want);
		}
		if (!o->help || !o->help[0])
			fail_msg("option --%s has no help", o->long_name);
	}
	if (missing[0])
		fail_msg("cli_usage() lacks:%s\n%s", missing, s);
	free(s);
}

static void test_options_unique(void **state)
{
	for (size_t i = 0; i < cli_nr_options; i++) {
		for (size_t j = i + 1; j < cli_nr_options; j++) {
			assert_string_not_equal(cli_options[i].long_name,
						cli_options[j].long_name);
			if (cli_options[i].short_name)
				assert_int_not_equal(cli_options[i].short_name,
						     cli_options[j].short_name);
		}
	}
}

/* The matching helpers themselves, on roff written the usual ways. */
static void test_helpers(void **state)
{
	char *t;

	t = plain(".TP\n.BR Up \", \" k\nselect\n.TP\n\\fBh\\fR, \\fB?\\fR, \\fBF1\\fP\nhelp\n"
		  ".TP\n.B <\n.TP\n\\fBSpace\\fR\n.\\\" k2 in a comment\n\\(la\n",
		  false);
	assert_true(has_token(t, "Up"));
	assert_true(has_token(t, "k"));
	assert_true(has_token(t, "h"));
	assert_true(has_token(t, "?"));
	assert_true(has_token(t, "F1"));
	assert_false(has_token(t, "F10"));
	assert_true(has_token(t, "<"));
	assert_true(has_token(t, "Space"));
	assert_false(has_token(t, "k2"));
	assert_false(has_token(t, "j"));
	assert_false(has_token(t, "/"));
	free(t);
	t = plain("on/off, (q) to quit.", false);
	assert_false(has_token(t, "/"));
	assert_true(has_token(t, "q"));
	free(t);

	t = plain(".TP\n.BR \\-d \", \" \\-\\-delay \" \" \\fISECS\\fR\n"
		  "\\fB\\-\\-no\\-stats\\fR\n\\-\\-iterations\\-x\n", true);
	assert_true(has_word(t, "\\-d"));
	assert_true(has_word(t, "\\-\\-delay"));
	assert_true(has_word(t, "\\-\\-no\\-stats"));
	assert_false(has_word(t, "\\-\\-no"));
	assert_false(has_word(t, "\\-\\-iterations"));
	assert_false(has_word(t, "\\-n"));
	/* "\-d" inside "\-\-delay" does not count as "\-d". */
	free(t);
	t = plain("\\-\\-delay\n", true);
	assert_false(has_word(t, "\\-d"));
	free(t);
	{
		char buf[64];

		roff_option(buf, sizeof(buf), "no-stats", 0);
		assert_string_equal(buf, "\\-\\-no\\-stats");
		roff_option(buf, sizeof(buf), NULL, 'V');
		assert_string_equal(buf, "\\-V");
	}
	t = section(".TH X 8\n.SH \"KEYS\"\nkeys\n.SH OPTIONS\nopts\n", "keys");
	assert_string_equal(t, "keys\n");
	free(t);
	assert_null(section(".SH KEYSX\n", "KEYS"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_keymap_consistent),
		cmocka_unit_test(test_no_key_bound_twice),
		cmocka_unit_test(test_options_unique),
		cmocka_unit_test(test_usage_options),
		cmocka_unit_test(test_man_sections),
		cmocka_unit_test(test_man_options),
		cmocka_unit_test(test_man_keys),
	};

	man_path = argc > 1 ? argv[1] : getenv("EBPFTOP_MAN");
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
