/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UI_TERM_H
#define EBPFTOP_UI_TERM_H

/* Private to the full-screen view: curses on and off the terminal. */

#include <stddef.h>

#include <curses.h>

/* Curses on the terminal, or -errno with the reason in @msg. */
int term_start(SCREEN **scr, char *msg, size_t len);

/* Curses off: the terminal as it was. */
void term_stop(SCREEN *scr);

/* Fatal-signal path: end curses if it is on (best effort). */
void term_emergency_restore(void);

#endif
