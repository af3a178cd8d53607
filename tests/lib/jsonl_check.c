// SPDX-License-Identifier: GPL-2.0-only
/*
 * jsonl_check: read JSON Lines on stdin; exit 0 when every line is one
 * complete JSON object (strict JSON, valid UTF-8, nothing after it) and
 * there is at least one line, else print the first bad line and exit 1.
 *
 *   jsonl_check [MIN_LINES]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

int main(int argc, char **argv)
{
	long min = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
	struct json_tokener *tok = json_tokener_new();
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long n = 0;
	int ret = 0;

	if (!tok)
		return 2;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
					    JSON_TOKENER_VALIDATE_UTF8);
	while ((len = getline(&line, &cap, stdin)) > 0) {
		struct json_object *o;

		n++;
		if (line[len - 1] != '\n') {
			fprintf(stderr, "line %ld: no newline at the end\n", n);
			ret = 1;
			break;
		}
		line[--len] = '\0';
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, line, (int)len);
		if (!o || json_tokener_get_error(tok) != json_tokener_success ||
		    json_tokener_get_parse_end(tok) != (size_t)len ||
		    !json_object_is_type(o, json_type_object)) {
			fprintf(stderr, "line %ld is not one JSON object (%s): %.200s\n",
				n, json_tokener_error_desc(json_tokener_get_error(tok)),
				line);
			json_object_put(o);
			ret = 1;
			break;
		}
		json_object_put(o);
	}
	if (!ret && n < min) {
		fprintf(stderr, "%ld lines, want at least %ld\n", n, min);
		ret = 1;
	}
	free(line);
	json_tokener_free(tok);
	return ret;
}
