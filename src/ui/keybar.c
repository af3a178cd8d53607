// SPDX-License-Identifier: GPL-2.0-only
/* The key bar: the keys of the key table that have a short label. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/colors.h"
#include "ui/draw.h"
#include "ui/keymap.h"
#include "ui/parts.h"

/* Short names for the key bar; actions without one stay off the bar. */
static const char *const bar_labels[ACT__MAX] = {
	[ACT_DETAILS] = "Details",
	[ACT_PROFILE] = "Profile",
	[ACT_HOT] = "Hot",
	[ACT_STATS] = "Stats",
	[ACT_SORT_PREV] = "Sort",
	[ACT_SORT_NEXT] = "Sort",
	[ACT_FILTER] = "Filter",
	[ACT_PAUSE] = "Pause",
	[ACT_LOG] = "Log",
	[ACT_DEMO_REGRESS] = "Regress",
	[ACT_HELP] = "Help",
	[ACT_QUIT] = "Quit",
};

static const char *bar_label(enum key_action a)
{
	return a >= 0 && a < ACT__MAX ? bar_labels[a] : NULL;
}

void keybar_draw(const struct tui_state *t, int y)
{
	int x = 0;

	if (y < 0)
		return;
	for (size_t i = 0; i < keymap_len; i++) {
		const struct key_binding *b = &keymap[i];
		const char *label = bar_label(b->action), *next;
		char keys[32] = "", text[40];
		int w;

		if (!label)
			continue;
		if (b->action == ACT_DEMO_REGRESS && !app__demo(t->app))
			continue;
		/* Neighbours with one label share an entry: "<>Sort". */
		while (i < keymap_len) {
			size_t n = strlen(keys);

			snprintf(keys + n, sizeof(keys) - n, "%s",
				 keymap[i].names[0]);
			next = i + 1 < keymap_len ?
				       bar_label(keymap[i + 1].action) : NULL;
			if (!next || strcmp(next, label))
				break;
			i++;
		}
		if (b->action == ACT_PAUSE && t->paused)
			label = "Resume";
		snprintf(text, sizeof(text), "%s ", label);
		w = (int)strlen(keys) + (int)strlen(text);
		if (x + w > COLS)
			break;
		draw_text(y, x, (int)strlen(keys), color(ROLE_KEYBAR_KEY), keys,
			  false, "~");
		draw_text(y, x + (int)strlen(keys), (int)strlen(text),
			  color(ROLE_KEYBAR_LABEL), text, false, "~");
		x += w;
	}
	if (x < COLS)
		draw_fill(y, x, COLS - x, color(ROLE_KEYBAR_LABEL));
}
