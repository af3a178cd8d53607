// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/keymap.h"

#include <curses.h>

const struct key_binding keymap[] = {
	{ { KEY_UP, 'k' }, { "Up", "k" }, ACT_UP, "select the program above" },
	{ { KEY_DOWN, 'j' }, { "Down", "j" }, ACT_DOWN, "select the program below" },
	{ { KEY_PPAGE }, { "PgUp" }, ACT_PGUP, "one page up" },
	{ { KEY_NPAGE }, { "PgDn" }, ACT_PGDN, "one page down" },
	{ { KEY_HOME }, { "Home" }, ACT_HOME, "first program" },
	{ { KEY_END }, { "End" }, ACT_END, "last program" },
	{ { '\n', KEY_ENTER, '\r' }, { "Enter" }, ACT_DETAILS,
	  "details of the selected program: maps, links, sizes (again to close)" },
	{ { 'p' }, { "p" }, ACT_PROFILE,
	  "profile the selected program: counters per run through fentry/fexit (again to stop)" },
	{ { 'a' }, { "a" }, ACT_HOT,
	  "hot lines of the selected program: its time per source line, by sampling (again to stop)" },
	{ { 'o' }, { "o" }, ACT_HOT_ORDER,
	  "hot lines: hottest first or in source order" },
	{ { 'w' }, { "w" }, ACT_HOT_WINDOW,
	  "hot lines: the last 5 s or everything since a" },
	{ { 's' }, { "s" }, ACT_STATS, "turn run-time stats on or off" },
	{ { '<' }, { "<" }, ACT_SORT_PREV, "sort by the column to the left" },
	{ { '>' }, { ">" }, ACT_SORT_NEXT, "sort by the column to the right" },
	{ { '/' }, { "/" }, ACT_FILTER,
	  "filter on name, type or owner (Enter keeps, Esc clears)" },
	{ { ' ' }, { "Space" }, ACT_PAUSE, "pause or resume refreshing" },
	{ { 'l' }, { "l" }, ACT_LOG,
	  "regression event log: when each regression began and ended" },
	{ { 'R' }, { "R" }, ACT_DEMO_REGRESS,
	  "with --demo: land or revert the classifier's regression" },
	{ { 'g' }, { "g" }, ACT_GRAPH_WINDOW,
	  "details graph: show the last 1, 5 or 15 minutes" },
	{ { 'h', '?', KEY_F(1) }, { "h", "?", "F1" }, ACT_HELP,
	  "this help (any key closes it)" },
	{ { 'q', KEY_F(10) }, { "q", "F10" }, ACT_QUIT, "quit" },
};
const size_t keymap_len = sizeof(keymap) / sizeof(keymap[0]);

enum key_action keymap_lookup(int key)
{
	for (size_t i = 0; i < keymap_len; i++) {
		for (int k = 0; k < KEYMAP_MAX_KEYS && keymap[i].keys[k]; k++) {
			if (keymap[i].keys[k] == key)
				return keymap[i].action;
		}
	}
	return ACT_NONE;
}
