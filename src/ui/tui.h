/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UI_TUI_H
#define EBPFTOP_UI_TUI_H

struct app;

/* Run the full-screen table until q, a quit signal or -n refreshes. */
int tui_run(struct app *a);

/* Fatal-signal path: put the terminal back (best effort). */
void tui_emergency_restore(void);

#endif
