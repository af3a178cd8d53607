// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/colors.h"

#include <stdlib.h>

enum pair {
	PAIR_NONE,
	PAIR_CYAN,
	PAIR_YELLOW,
	PAIR_ON_GREEN,
	PAIR_ON_CYAN,
	PAIR_ON_BLUE,
	PAIR_RED,
	PAIR_ON_RED,
	PAIR__MAX,
};

/* Foreground and background of each pair; -1 is the terminal's default. */
static const short pair_colors[PAIR__MAX][2] = {
	[PAIR_CYAN] = { COLOR_CYAN, -1 },
	[PAIR_YELLOW] = { COLOR_YELLOW, -1 },
	[PAIR_ON_GREEN] = { COLOR_BLACK, COLOR_GREEN },
	[PAIR_ON_CYAN] = { COLOR_BLACK, COLOR_CYAN },
	[PAIR_ON_BLUE] = { COLOR_WHITE, COLOR_BLUE },
	[PAIR_RED] = { COLOR_RED, -1 },
	[PAIR_ON_RED] = { COLOR_WHITE, COLOR_RED },
};

static const attr_t schemes[SCHEME__MAX][ROLE__MAX] = {
	[SCHEME_DEFAULT] = {
		[ROLE_NORMAL] = A_NORMAL,
		[ROLE_HEADER] = COLOR_PAIR(PAIR_CYAN) | A_BOLD,
		[ROLE_STATUS] = A_NORMAL,
		[ROLE_MESSAGE] = COLOR_PAIR(PAIR_YELLOW) | A_BOLD,
		[ROLE_COLHDR] = COLOR_PAIR(PAIR_ON_GREEN),
		[ROLE_SORTCOL] = COLOR_PAIR(PAIR_ON_CYAN) | A_BOLD,
		[ROLE_SELECTED] = COLOR_PAIR(PAIR_ON_CYAN),
		[ROLE_EMPTY] = COLOR_PAIR(PAIR_YELLOW),
		[ROLE_KEYBAR_KEY] = A_BOLD,
		[ROLE_KEYBAR_LABEL] = COLOR_PAIR(PAIR_ON_CYAN),
		[ROLE_DETAILS_TITLE] = COLOR_PAIR(PAIR_ON_BLUE) | A_BOLD,
		[ROLE_DETAILS_LABEL] = COLOR_PAIR(PAIR_CYAN),
		[ROLE_REGRESSED] = COLOR_PAIR(PAIR_RED) | A_BOLD,
		[ROLE_FLAG] = COLOR_PAIR(PAIR_ON_RED) | A_BOLD,
		[ROLE_BANNER] = COLOR_PAIR(PAIR_ON_RED) | A_BOLD,
	},
	/* Reverse marks bars; bold and underline mark what stands out. */
	[SCHEME_MONOCHROME] = {
		[ROLE_NORMAL] = A_NORMAL,
		[ROLE_HEADER] = A_BOLD,
		[ROLE_STATUS] = A_NORMAL,
		[ROLE_MESSAGE] = A_BOLD,
		[ROLE_COLHDR] = A_REVERSE,
		[ROLE_SORTCOL] = A_BOLD | A_UNDERLINE,
		[ROLE_SELECTED] = A_REVERSE | A_BOLD,
		[ROLE_EMPTY] = A_BOLD,
		[ROLE_KEYBAR_KEY] = A_BOLD,
		[ROLE_KEYBAR_LABEL] = A_REVERSE,
		[ROLE_DETAILS_TITLE] = A_BOLD | A_UNDERLINE,
		[ROLE_DETAILS_LABEL] = A_BOLD,
		/* The FLAG column's text says it without colour. */
		[ROLE_REGRESSED] = A_BOLD,
		[ROLE_FLAG] = A_REVERSE | A_BOLD,
		[ROLE_BANNER] = A_REVERSE | A_BOLD,
	},
};

static const attr_t *scheme = schemes[SCHEME_MONOCHROME];

void colors_init(void)
{
	bool defaults;

	scheme = schemes[SCHEME_MONOCHROME];
	/* https://no-color.org: any non-empty value asks for no colour. */
	if (!has_colors() || (getenv("NO_COLOR") && *getenv("NO_COLOR")))
		return;
	if (start_color() == ERR)
		return;
	defaults = use_default_colors() == OK;
	for (short p = 1; p < PAIR__MAX; p++) {
		short fg = pair_colors[p][0], bg = pair_colors[p][1];

		/* Without default colours, -1 means nothing: say black. */
		if (!defaults && bg < 0)
			bg = COLOR_BLACK;
		if (init_pair(p, fg, bg) == ERR)
			return;
	}
	scheme = schemes[SCHEME_DEFAULT];
}

attr_t color(enum color_role role)
{
	return role < ROLE__MAX ? scheme[role] : A_NORMAL;
}
