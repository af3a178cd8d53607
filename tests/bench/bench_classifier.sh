#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What one run of the demo's XDP classifier costs, fast and regressed,
# through BPF_PROG_TEST_RUN on the packets the demo sends: the same
# regression ebpftop --demo shows live, caught offline (in CI, say).
#
#   sudo tests/bench/bench_classifier.sh [BUILD_DIR]
#
# BUILD_DIR is a configured build tree (default ./build); the helper
# tests/bench/bench_classifier is built there if it is missing (make check
# builds it too). Prints Bencher Metric Format JSON on stdout, ns/run as
# the "latency" measure (median of the rounds, with their extremes), e.g.
#   bencher run --adapter json "sudo tests/bench/bench_classifier.sh"
# and a one-line summary on stderr. This prints figures; it does not pass
# or fail on them (tests/test_demo_classifier checks the 3x ratio).
#
# Environment: BENCH_ROUNDS (default 5), BENCH_REPEAT (runs per
# BPF_PROG_TEST_RUN call, default 100000), BENCH_SOURCES (demo source
# addresses per round, default 16), BENCH_TERMS (terms the regressed path
# walks, default the program's own).
set -euo pipefail
shopt -s inherit_errexit

build=${1:-./build}
rounds=${BENCH_ROUNDS:-5}
repeat=${BENCH_REPEAT:-100000}
sources=${BENCH_SOURCES:-16}
terms=${BENCH_TERMS:-}

die() {
	echo "bench_classifier: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "run as root (BPF_PROG_TEST_RUN needs CAP_BPF and CAP_NET_ADMIN)"
[ -f "$build/Makefile" ] || die "no configured build tree at '$build': run scripts/setup.sh or configure first, or pass its path"
helper=$build/tests/bench/bench_classifier
make -C "$build" -s tests/bench/bench_classifier >&2 ||
	die "cannot build $helper"

args=(-r "$rounds" -n "$repeat" -s "$sources")
[ -z "$terms" ] || args+=(-t "$terms")
echo "bench_classifier: $(uname -r), $(nproc) cpus, $(date -u '+%Y-%m-%d %H:%M UTC')" >&2
exec "$helper" "${args[@]}"
