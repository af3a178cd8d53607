/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UI_KEYMAP_H
#define EBPFTOP_UI_KEYMAP_H

#include <stddef.h>

enum key_action {
	ACT_NONE = -1,
	ACT_UP,
	ACT_DOWN,
	ACT_PGUP,
	ACT_PGDN,
	ACT_HOME,
	ACT_END,
	ACT_DETAILS,
	ACT_PROFILE,
	ACT_HOT,
	ACT_HOT_ORDER,
	ACT_HOT_WINDOW,
	ACT_STATS,
	ACT_SORT_PREV,
	ACT_SORT_NEXT,
	ACT_FILTER,
	ACT_PAUSE,
	ACT_LOG,
	ACT_DEMO_REGRESS,
	ACT_GRAPH_WINDOW,
	ACT_HELP,
	ACT_QUIT,
	ACT__MAX,
};

#define KEYMAP_MAX_KEYS 4

/*
 * One binding: the keys (curses codes) that trigger an action, their names
 * as the help screen and the man page print them, and what the action does.
 * This table is the only place keys are defined; the help screen is drawn
 * from it and a test checks the man page against it.
 */
struct key_binding {
	int keys[KEYMAP_MAX_KEYS];	/* 0-terminated when shorter */
	const char *names[KEYMAP_MAX_KEYS]; /* one name per key */
	enum key_action action;
	const char *help;
};

extern const struct key_binding keymap[];
extern const size_t keymap_len;

/* The action bound to curses key @key, or ACT_NONE. */
enum key_action keymap_lookup(int key);

#endif
