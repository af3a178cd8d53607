#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What one run of the demo's XDP classifier costs, fast and regressed:
# ebpftop --bench on the classifier's object, once as built and once with
# its regression switch set (--bench-set regressed=1), merged into one
# Bencher Metric Format document on stdout:
#
#   sudo tests/bench/bench_classifier.sh [BUILD_DIR]
#   bencher run --adapter json "sudo tests/bench/bench_classifier.sh"
#
# BUILD_DIR is a built tree (default ./build). The two tables go to
# stderr. This prints figures; it does not pass or fail on them
# (tests/test_bench.sh checks the 3x ratio and the gate).
# Environment: BENCH_ROUNDS (default 10), BENCH_TERMS (terms the regressed
# path walks, default the program's own).
set -euo pipefail
shopt -s inherit_errexit

build=${1:-./build}
rounds=${BENCH_ROUNDS:-10}
terms=${BENCH_TERMS:-}

die() {
	echo "bench_classifier: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "run as root (BPF_PROG_TEST_RUN needs CAP_BPF and CAP_NET_ADMIN)"
obj=$build/bpf/xdp_classifier.bpf.o
[ -x "$build/ebpftop" ] && [ -f "$obj" ] || die "no ebpftop or $obj in '$build': build first (scripts/setup.sh)"
command -v jq >/dev/null || die "jq is needed to merge the two documents"
set_terms=()
[ -z "$terms" ] || set_terms=(--bench-set "slow_terms=$terms")
fast=$("$build/ebpftop" --bench "$obj" --bench-rounds "$rounds" --bmf "${set_terms[@]}")
slow=$("$build/ebpftop" --bench "$obj" --bench-rounds "$rounds" --bmf "${set_terms[@]}" \
	--bench-set regressed=1)
jq -n --argjson f "$fast" --argjson s "$slow" \
	'{"xdp_classifier/fast": $f[], "xdp_classifier/regressed": $s[]}'
