// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "json_keys.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

void assert_keys(struct json_object *o, const char *const *keys, size_t n)
{
	size_t count = 0;

	json_object_object_foreach(o, k, v) {
		bool known = false;

		(void)v;
		for (size_t i = 0; i < n; i++)
			known |= !strcmp(k, keys[i]);
		if (!known)
			fail_msg("unexpected key \"%s\"", k);
		count++;
	}
	assert_int_equal(count, n);
}
