#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (figures, not a test): what sampling hot lines costs. A busy
# program's ns/run (BPF_PROG_TEST_RUN, the kernel's own measure) with
# ebpftop running without --hot, then with --hot on it at 1,000, 4,000
# and 10,000 Hz; ebpftop's sampler thread's CPU and the whole process's,
# in ms per second (10 ms/s is 1% of one CPU); the machine's busy share.
# Needs root.
#
#   top_builddir=BUILD tests/bench/bench_hot.sh [SECS [ROUNDS]]
set -u
top_builddir=${top_builddir:-.}
helper=$top_builddir/tests/bench/bench_hot
if [ ! -x "$helper" ]; then
	make -C "$top_builddir" tests/bench/bench_hot >/dev/null ||
		{ echo "bench_hot: cannot build $helper" >&2; exit 1; }
fi
exec "$helper" "$top_builddir/ebpftop" "${1:-3}" "${2:-5}"
