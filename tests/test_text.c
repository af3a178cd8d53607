// SPDX-License-Identifier: GPL-2.0-only
/* text_escape(): what batch text output writes of names chosen by others. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/text.h"

static void check(const char *in, const char *want)
{
	char buf[128];

	text_escape(buf, sizeof(buf), in);
	if (strcmp(buf, want))
		fail_msg("text_escape(\"%s\"): [%s], want [%s]", in, buf, want);
}

static void test_plain(void **state)
{
	check("", "");
	check("xdp_classifier", "xdp_classifier");
	check("systemd(1), sshd(4242)", "systemd(1), sshd(4242)");
	check("a\\b", "a\\\\b");
}

/* The OWNERS of the issue: a process named to clear and retitle a screen. */
static void test_escape_sequences(void **state)
{
	char buf[128];

	check("\x1b[2J\x1b]0;pwn\x07", "\\x1b[2J\\x1b]0;pwn\\x07");
	check("tab\there\nnl\rcr\x7f", "tab\\x09here\\x0anl\\x0dcr\\x7f");
	/* Whatever comes in, no control byte goes out. */
	for (int c = 1; c < 256; c++) {
		char in[4] = { 'a', (char)c, 'b', 0 };

		text_escape(buf, sizeof(buf), in);
		for (const char *p = buf; *p; p++)
			assert_false((unsigned char)*p < 0x20 ||
				     (unsigned char)*p == 0x7f);
	}
}

/* UTF-8 that prints stays; C1 controls (CSI is U+009B) and broken or
 * overlong sequences do not. */
static void test_utf8(void **state)
{
	check("x\xc3\xa9", "x\xc3\xa9");
	check("\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac");
	check("\xf0\x9f\x90\x9d", "\xf0\x9f\x90\x9d");
	check("\xc2\x9b" "2J", "\\xc2\\x9b2J");
	check("\xc2\xa0", "\xc2\xa0");
	check("\xc3", "\\xc3");
	check("\xc3x", "\\xc3x");
	check("\xc0\x9b", "\\xc0\\x9b");
	check("\xe0\x80\x9b", "\\xe0\\x80\\x9b");
	check("\xed\xa0\x80", "\\xed\\xa0\\x80");
	check("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	check("\xff\xfe", "\\xff\\xfe");
}

/* A small buffer: cut between escapes and characters, never inside one. */
static void test_small_buffer(void **state)
{
	char buf[16];

	memset(buf, 'Z', sizeof(buf));
	text_escape(buf, 6, "a\x1b\x1b");
	assert_string_equal(buf, "a\\x1b");
	assert_int_equal(buf[6], 'Z');
	text_escape(buf, 5, "a\x1b\x1b");
	assert_string_equal(buf, "a");
	text_escape(buf, 3, "x\xc3\xa9");
	assert_string_equal(buf, "x");
	text_escape(buf, 1, "abc");
	assert_string_equal(buf, "");
	/* A run of plain ASCII cut where the buffer ends, then after an escape. */
	memset(buf, 'Z', sizeof(buf));
	text_escape(buf, 8, "abcdefghijkl");
	assert_string_equal(buf, "abcdefg");
	assert_int_equal(buf[8], 'Z');
	text_escape(buf, 8, "abcdefg");
	assert_string_equal(buf, "abcdefg");
	text_escape(buf, 8, "ab\\cdefgh");
	assert_string_equal(buf, "ab\\\\cde");
	text_escape(buf, 9, "a\x1b" "cdefgh");
	assert_string_equal(buf, "a\\x1bcde");
	buf[0] = 'Z';
	text_escape(buf, 0, "abc");
	assert_int_equal(buf[0], 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
