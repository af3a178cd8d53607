/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON checks shared by the unit tests that read ebpftop's records back. */
#ifndef EBPFTOP_TESTS_JSON_KEYS_H
#define EBPFTOP_TESTS_JSON_KEYS_H

#include <stddef.h>

#include <json-c/json.h>

/* Fail the running cmocka test unless @o has exactly the keys @keys[@n]. */
void assert_keys(struct json_object *o, const char *const *keys, size_t n);

#endif
