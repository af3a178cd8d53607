// SPDX-License-Identifier: GPL-2.0-only
/* The terminal under curses: its size, starting and stopping curses, the fatal-signal restore. */
#include "config.h"

#include "ui/term.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ui/colors.h"
#include "util/msg.h"

/* Set while curses owns the terminal, for the fatal-signal path. */
static volatile sig_atomic_t curses_active;

void term_emergency_restore(void)
{
	/* Not async-signal-safe, but the process is dying anyway (as htop). */
	if (curses_active) {
		curses_active = 0;
		endwin();
	}
}

/*
 * ncurses keeps screen sizes in a short: a terminal of more lines or
 * columns than this cannot be drawn (newterm() fails).
 */
#define TERM_DIM_MAX 32767

/* The size ncurses will use: $LINES and $COLUMNS, else the tty's. */
static void term_size(int *rows, int *cols)
{
	struct winsize ws = { 0 };
	const char *l = getenv("LINES"), *c = getenv("COLUMNS");

	*rows = *cols = 0;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws)) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
	if (l && atoi(l) > 0)
		*rows = atoi(l);
	if (c && atoi(c) > 0)
		*cols = atoi(c);
}

int term_start(SCREEN **scr, char *msg, size_t len)
{
	const char *term = getenv("TERM") ? getenv("TERM") : "(unset)";
	const char *cup;
	int rows, cols;

	term_size(&rows, &cols);
	if (rows > TERM_DIM_MAX || cols > TERM_DIM_MAX)
		return msg_fail(msg, len, -ERANGE,
				"the terminal is %d columns by %d lines: the full-screen view draws at most %d of either; make it smaller, or use -b for text output",
				cols, rows, TERM_DIM_MAX);
	*scr = newterm(NULL, stdout, stdin);
	if (!*scr)
		return msg_fail(msg, len, -ENOTTY,
				"cannot drive terminal type '%s': set TERM, or use -b for text output",
				term);
	/* A terminal that cannot place the cursor (dumb) cannot show a table. */
	cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		endwin();
		delscreen(*scr);
		*scr = NULL;
		return msg_fail(msg, len, -ENOTTY,
				"terminal type '%s' cannot move the cursor, which the full-screen view needs: set TERM to your terminal's type, or use -b for text output",
				term);
	}
	curses_active = 1;
	cbreak();
	noecho();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	/* The loop waits in poll(); get_wch() only drains what arrived. */
	nodelay(stdscr, TRUE);
	/* Esc closes the filter prompt: do not wait long for a sequence. */
	set_escdelay(25);
	curs_set(0);
	colors_init();
	return 0;
}

void term_stop(SCREEN *scr)
{
	curs_set(1);
	endwin();
	curses_active = 0;
	delscreen(scr);
}
