/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UI_COLORS_H
#define EBPFTOP_UI_COLORS_H

#include <curses.h>

/* What a piece of the screen is; drawing code asks for roles, not colours. */
enum color_role {
	ROLE_NORMAL,
	ROLE_HEADER,
	ROLE_STATUS,
	ROLE_MESSAGE,
	ROLE_COLHDR,
	ROLE_SORTCOL,
	ROLE_SELECTED,
	ROLE_EMPTY,		/* "no BPF programs loaded" */
	ROLE_KEYBAR_KEY,
	ROLE_KEYBAR_LABEL,
	ROLE_DETAILS_TITLE,
	ROLE_DETAILS_LABEL,
	ROLE_REGRESSED,		/* a row whose ns/run regressed */
	ROLE_FLAG,		/* its marker in the FLAG column */
	ROLE_BANNER,		/* "REGRESSION: name +240% ns/run" */
	ROLE__MAX,
};

enum color_scheme {
	SCHEME_DEFAULT,
	SCHEME_MONOCHROME,	/* attributes only: vt100, NO_COLOR */
	SCHEME__MAX,
};

/*
 * Pick the scheme (monochrome when the terminal has no colours or
 * NO_COLOR is set) and set up its colour pairs. Call after newterm().
 */
void colors_init(void);

/* The attributes of @role in the current scheme. */
attr_t color(enum color_role role);

#endif
