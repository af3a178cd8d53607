// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/tui.h"

int tui_run(struct app *a)
{
	return -1;
}

void tui_emergency_restore(void)
{
}
