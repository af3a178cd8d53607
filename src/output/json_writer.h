/* SPDX-License-Identifier: GPL-2.0-only */
/* The JSON writer lives in util/ now (analysis/columns.c uses it too). */
#include "util/json_writer.h"
