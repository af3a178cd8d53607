// SPDX-License-Identifier: GPL-2.0-only
/*
 * The key table, the column table, --help and the man page agree: every
 * key name of the key table is in the man page's KEYS section, every
 * option of cli_options[] is in its OPTIONS section and in cli_usage(),
 * every column of the column table is described in FIELDS (and FIELDS
 * describes no other), and the tables themselves are consistent.
 *
 * The man page is read as groff renders it (as man(1) shows it), from
 * $EBPFTOP_MAN, or argv[1], or $top_srcdir/man/ebpftop.8; groff must
 * render it without a warning.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <curses.h>

#include "analysis/columns.h"
#include "cli.h"
#include "ui/keymap.h"

static const char *man_path;
static char *man_text;

/* ---- rendering the man page ---------------------------------------------- */

/* All of @fd, NUL-terminated (malloc'd; NULL on a read error). */
static char *read_all(int fd)
{
	size_t len = 0, cap = 0;
	char *s = NULL;

	for (;;) {
		ssize_t n;

		if (len + 4096 + 1 > cap) {
			char *t = realloc(s, cap = cap ? cap * 2 : 65536);

			if (!t) {
				free(s);
				return NULL;
			}
			s = t;
		}
		n = read(fd, s + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(s);
			return NULL;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	s[len] = '\0';
	return s;
}

/*
 * The page as plain text: groff's man macros, ASCII, no bold or
 * underline, no hyphenation, lines long enough that a tag or a sentence
 * seldom wraps. Warnings (-ww) go to @warnings.
 */
static char *render(const char *path, char **warnings)
{
	int out[2];
	FILE *err = tmpfile();
	pid_t pid;
	char *text;
	int status;

	*warnings = NULL;
	if (!err || pipe(out))
		return NULL;
	pid = fork();
	if (pid < 0)
		return NULL;
	if (!pid) {
		dup2(out[1], STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		close(out[0]);
		close(out[1]);
		execlp("groff", "groff", "-ww", "-man", "-Tascii", "-rLL=200n",
		       "-rHY=0", "-P-cbou", path, (char *)NULL);
		fprintf(stderr, "cannot run groff: %s\n", strerror(errno));
		_exit(127);
	}
	close(out[1]);
	text = read_all(out[0]);
	close(out[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	rewind(err);
	*warnings = read_all(fileno(err));
	fclose(err);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "groff failed on %s: %s\n", path,
			*warnings ? *warnings : "");
		free(text);
		return NULL;
	}
	return text;
}

/*
 * The lines of section @name (malloc'd; NULL if there is none): after its
 * heading, a line of its own at the left margin, up to the next heading.
 */
static char *section(const char *text, const char *name)
{
	size_t nl = strlen(name);
	const char *p = text, *start = NULL;
	char *s;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		while (len && p[len - 1] == ' ')
			len--;
		if (start && len && !isspace((unsigned char)*p))
			break;
		if (!start && len == nl && !strncmp(p, name, nl))
			start = eol ? eol + 1 : p + len;
		p = eol ? eol + 1 : p + strlen(p);
	}
	if (!start)
		return NULL;
	s = strndup(start, (size_t)(p - start));
	assert_non_null(s);
	return s;
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
 * is not a letter, digit or '-', and the one after not a letter, digit
 * or '-' either ("--no" is not in "--no-stats", "-d" not in "--delay").
 */
static bool has_word(const char *s, const char *needle)
{
	size_t nl = strlen(needle);

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) {
		const char *a = p + nl;

		if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '-'))
			continue;
		if (isalnum((unsigned char)*a) || *a == '-')
			continue;
		return true;
	}
	return false;
}

static int group_setup(void **state)
{
	const char *top = getenv("top_srcdir");
	static char path[4096];
	char *warnings;

	if (!man_path || !*man_path) {
		snprintf(path, sizeof(path), "%s/man/ebpftop.8",
			 top && *top ? top : ".");
		man_path = path;
	}
	if (access(man_path, R_OK)) {
		fprintf(stderr, "cannot read the man page %s: %s\n", man_path,
			strerror(errno));
		return -1;
	}
	man_text = render(man_path, &warnings);
	if (!man_text) {
		free(warnings);
		return -1;
	}
	if (warnings && *warnings) {
		fprintf(stderr, "groff warns about %s:\n%s", man_path, warnings);
		free(warnings);
		return -1;
	}
	free(warnings);
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
	char *text = section(man_text, "KEYS");
	char missing[512] = "";

	if (!text)
		fail_msg("%s has no KEYS section (.SH KEYS)", man_path);
	for (size_t i = 0; i < keymap_len; i++) {
		for (int n = 0; n < nr_names(&keymap[i]); n++) {
			if (!has_token(text, keymap[i].names[n]))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 " \"%s\"", keymap[i].names[n]);
		}
	}
	free(text);
	if (missing[0])
		fail_msg("keys missing from the KEYS section of %s:%s", man_path,
			 missing);
}

static void test_man_options(void **state)
{
	char *text = section(man_text, "OPTIONS");
	char missing[1024] = "", want[64];

	if (!text)
		fail_msg("%s has no OPTIONS section (.SH OPTIONS)", man_path);
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];

		snprintf(want, sizeof(want), "--%s", o->long_name);
		if (!has_word(text, want))
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), " %s", want);
		if (o->short_name) {
			snprintf(want, sizeof(want), "-%c", o->short_name);
			if (!has_word(text, want))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 " %s", want);
		}
	}
	/* -s names every sort key of the column table. */
	for (int c = 0; c < COL__MAX; c++) {
		if (col_table[c].sort_name &&
		    !has_token(text, col_table[c].sort_name))
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing),
				 " -s %s", col_table[c].sort_name);
	}
	free(text);
	if (missing[0])
		fail_msg("options missing from the OPTIONS section of %s:%s",
			 man_path, missing);
}

/* ---- the column table ---------------------------------------------------- */

/* The column whose full-screen or batch label is @label (@len bytes). */
static int column_by_label(const char *label, size_t len)
{
	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = &col_table[c];

		if (d->label && strlen(d->label) == len &&
		    !strncmp(d->label, label, len))
			return c;
		if (d->text_label && strlen(d->text_label) == len &&
		    !strncmp(d->text_label, label, len))
			return c;
	}
	return -1;
}

/*
 * Every column has an entry in FIELDS: a tag line "LABEL (json_key)",
 * "TEXT_LABEL, LABEL (json_key)" or, JSON only, "(json_key)"; and every
 * such entry is a column of the table, with its labels and key.
 */
static void test_man_fields(void **state)
{
	char *text = section(man_text, "FIELDS");
	bool seen[COL__MAX] = { false };
	char missing[512] = "";
	const char *p;
	regex_t re;

	if (!text)
		fail_msg("%s has no FIELDS section (.SH FIELDS)", man_path);
	assert_int_equal(regcomp(&re, "^       (([A-Z][A-Z_/%]*)(, [A-Z][A-Z_/%]*)*)? ?"
				      "\\(([a-z_]+)\\)( |$)",
				 REG_EXTENDED | REG_NEWLINE), 0);
	for (p = text; *p;) {
		regmatch_t m[6];
		const char *eol = strchr(p, '\n'), *l;
		char line[256];
		int col = -1;

		snprintf(line, sizeof(line), "%.*s",
			 (int)(eol ? eol - p : (ptrdiff_t)strlen(p)), p);
		p = eol ? eol + 1 : p + strlen(p);
		if (regexec(&re, line, 6, m, 0))
			continue;
		/* Each label names the same column. */
		for (l = line + m[1].rm_so; m[1].rm_so >= 0 && l < line + m[1].rm_eo;) {
			size_t n = strcspn(l, ",");
			int c;

			if (l + n > line + m[1].rm_eo)
				n = (size_t)(line + m[1].rm_eo - l);
			c = column_by_label(l, n);
			if (c < 0)
				fail_msg("FIELDS describes %.*s, which is no column: %s",
					 (int)n, l, line);
			if (col >= 0 && c != col)
				fail_msg("FIELDS entry names two columns: %s", line);
			col = c;
			l += n;
			l += strspn(l, ", ");
		}
		if (col < 0) {
			/* "(key)": a column that is in JSON only. */
			for (int c = 0; c < COL__MAX; c++) {
				const char *k = col_table[c].json_key;

				if (!col_table[c].label && k &&
				    strlen(k) == (size_t)(m[4].rm_eo - m[4].rm_so) &&
				    !strncmp(k, line + m[4].rm_so, strlen(k)))
					col = c;
			}
			if (col < 0)
				fail_msg("FIELDS describes JSON member %s, which no JSON-only column has",
					 line);
		}
		if (!col_table[col].json_key ||
		    strncmp(col_table[col].json_key, line + m[4].rm_so,
			    (size_t)(m[4].rm_eo - m[4].rm_so)) ||
		    strlen(col_table[col].json_key) !=
			    (size_t)(m[4].rm_eo - m[4].rm_so))
			fail_msg("FIELDS gives %s the JSON key %.*s, the table %s",
				 col_label(col), (int)(m[4].rm_eo - m[4].rm_so),
				 line + m[4].rm_so,
				 col_table[col].json_key ? col_table[col].json_key :
							  "none");
		/* Both labels, where the batch table has its own. */
		if (col_table[col].text_label &&
		    (!strstr(line, col_table[col].text_label) ||
		     !has_token(line, col_table[col].label)))
			fail_msg("FIELDS entry %s lacks a label of its column", line);
		seen[col] = true;
	}
	regfree(&re);
	for (int c = 0; c < COL__MAX; c++) {
		if (!seen[c])
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), " %s",
				 col_table[c].label ? col_table[c].label :
						      col_table[c].json_key);
	}
	free(text);
	if (missing[0])
		fail_msg("columns without an entry in the FIELDS section of %s:%s",
			 man_path, missing);
}

/* FIELDS says in which order narrow screens drop columns: the table's. */
static void test_man_drop_order(void **state)
{
	char *text = section(man_text, "FIELDS"), *start, *end;
	char said[256] = "", want[256] = "";
	int last = 0;

	if (!text)
		fail_msg("%s has no FIELDS section", man_path);
	start = strstr(text, "in this order:");
	end = start ? strstr(start, "so that") : NULL;
	if (!start || !end) {
		free(text);
		fail_msg("FIELDS does not say \"in this order: ... so that\"");
		return;
	}
	*end = '\0';
	for (char *tok = strtok(start, " \t\n,;"); tok; tok = strtok(NULL, " \t\n,;")) {
		size_t n = strlen(tok);

		while (n && strchr(".:", tok[n - 1]))
			n--;
		if (column_by_label(tok, n) >= 0)
			snprintf(said + strlen(said), sizeof(said) - strlen(said),
				 " %.*s", (int)n, tok);
	}
	/* The table's drop ranks, lowest first. */
	for (;;) {
		int best = -1;

		for (int c = 0; c < COL__MAX; c++) {
			if (col_table[c].drop > last &&
			    (best < 0 || col_table[c].drop < col_table[best].drop))
				best = c;
		}
		if (best < 0)
			break;
		last = col_table[best].drop;
		snprintf(want + strlen(want), sizeof(want) - strlen(want), " %s",
			 col_table[best].label);
	}
	free(text);
	if (strcmp(said, want))
		fail_msg("FIELDS drops columns in the order%s, the table in the order%s",
			 said, want);
}

static void test_man_sections(void **state)
{
	/* The sections every reader of the page looks for. */
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

/* The matching helpers themselves, on text as groff renders it. */
static void test_helpers(void **state)
{
	const char *keys, *opts;
	char *t;

	keys = "       Up, k  Select.\n\n       h, ?, F1\n"
			   "              help\n       <      Sort.\n"
			   "       Space  Pause; on/off, (q) to quit.\n";

	assert_true(has_token(keys, "Up"));
	assert_true(has_token(keys, "k"));
	assert_true(has_token(keys, "h"));
	assert_true(has_token(keys, "?"));
	assert_true(has_token(keys, "F1"));
	assert_false(has_token(keys, "F10"));
	assert_true(has_token(keys, "<"));
	assert_true(has_token(keys, "Space"));
	assert_true(has_token(keys, "q"));
	assert_false(has_token(keys, "j"));
	assert_false(has_token(keys, "/"));

	opts = "-d, --delay SECS\n--no-stats\n--iterations-x\n";
	assert_true(has_word(opts, "-d"));
	assert_true(has_word(opts, "--delay"));
	assert_true(has_word(opts, "--no-stats"));
	assert_false(has_word(opts, "--no"));
	assert_false(has_word(opts, "--iterations"));
	assert_false(has_word(opts, "-n"));
	assert_false(has_word("--delay\n", "-d"));

	t = section("NAME\n       x\nKEYS\n       keys\n   Sub\n       more\n"
		    "OPTIONS\n       opts\n", "KEYS");
	assert_string_equal(t, "       keys\n   Sub\n       more\n");
	free(t);
	assert_null(section("KEYSX\n", "KEYS"));
	/* groff renders a page it is given. */
	assert_non_null(strstr(man_text, "ebpftop"));
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
		cmocka_unit_test(test_man_fields),
		cmocka_unit_test(test_man_drop_order),
	};

	man_path = argc > 1 ? argv[1] : getenv("EBPFTOP_MAN");
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
