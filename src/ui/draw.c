// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/draw.h"

#include <string.h>

#include "ui/layout.h"

const char *draw_ellipsis(bool utf8)
{
	return utf8 ? "\xe2\x80\xa6" : "~";	/* U+2026 … */
}

/*
 * Printable ASCII @s straight into the window's cells with @attr, as
 * mvaddstr() would put it but without its per-byte multibyte decoding
 * (most of a frame's cost with a full table). False, and nothing drawn,
 * for anything else: UTF-8, control bytes.
 */
static bool put_ascii(int y, int x, const char *s, attr_t attr)
{
	chtype cells[CELL_MAX + 8];
	size_t n = 0;

	for (; s[n]; n++) {
		unsigned char c = (unsigned char)s[n];

		if (c < 0x20 || c > 0x7e || n == sizeof(cells) / sizeof(*cells))
			return false;
		cells[n] = (chtype)c | attr;
	}
	return mvaddchnstr(y, x, cells, (int)n) != ERR;
}

void draw_text(int y, int x, int w, attr_t attr, const char *text,
	       bool right, const char *ell)
{
	char buf[CELL_MAX + 8];

	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return;
	if (w > COLS - x)
		w = COLS - x;
	if (w <= 0)
		return;
	layout_fit(buf, sizeof(buf), text, w, right, ell);
	attrset(attr);
	if (!put_ascii(y, x, buf, attr))
		mvaddstr(y, x, buf);
}

void draw_fill(int y, int x, int w, attr_t attr)
{
	draw_text(y, x, w, attr, "", false, "~");
}

void draw_line(int y, int x, attr_t attr, const char *text, const char *ell)
{
	draw_text(y, x, COLS - x, attr, text, false, ell);
}

bool draw_seg(int y, int *x, attr_t attr, const char *text, const char *ell)
{
	int len = (int)strlen(text);

	if (*x >= COLS)
		return false;
	draw_text(y, *x, len, attr, text, false, ell);
	*x += len;
	return *x < COLS;
}

size_t draw_wrap(const char *s, int w, const char **next)
{
	size_t n = strlen(s), cut;

	if (w < 1)
		w = 1;
	if (n <= (size_t)w) {
		*next = s + n;
		return n;
	}
	cut = (size_t)w;
	while (cut > (size_t)w / 2 && s[cut] != ' ')
		cut--;
	if (s[cut] != ' ')
		cut = (size_t)w;
	*next = s + cut + (s[cut] == ' ');
	return cut;
}

int draw_wrapped(int y, int end, int x, int w, attr_t attr, const char *text,
		 const char *ell)
{
	const char *s = text;

	if (y >= end)
		return y;
	do {
		const char *start = s, *next;
		char chunk[CELL_MAX];
		size_t n = draw_wrap(s, w, &next);

		if (n >= sizeof(chunk))
			n = sizeof(chunk) - 1;
		memcpy(chunk, s, n);
		chunk[n] = '\0';
		s = next;
		/* The last line that fits shows there was more. */
		draw_line(y, x, attr, *s && y + 1 == end ? start : chunk, ell);
		y++;
	} while (*s && y < end);
	return y;
}
