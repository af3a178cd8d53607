#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make check runs every test through this: a test that hangs fails after
# EBPFTOP_TEST_TIMEOUT seconds (default 300) instead of stalling the run.
# timeout(1) exits 124 then, which the harness counts as a failure.
exec timeout --kill-after=10 "${EBPFTOP_TEST_TIMEOUT:-300}" "$@"
