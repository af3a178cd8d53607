#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What the exporter costs per refresh with many programs loaded.
#
#   sudo tests/bench/bench_export.sh [path/to/build]
#
# First the pure part (tests/bench/bench_export: building the metrics and
# rendering both formats from a made-up refresh of 1k and 10k programs).
# Then, for each N of BENCH_COUNTS, a helper loads N socket filters and
# holds them; ebpftop runs 1 and 21 refreshes at -d 0.1 in batch mode,
# once printing nothing of note (-f matching no program) and once as a
# headless exporter (-q --listen); the difference of the CPU times over 20
# is one steady refresh, and the difference between the two modes is what
# the export adds. Scrapes of the endpoint are timed with curl. Figures
# only: it does not pass or fail. Mind the machine: never more than
# 10,000 programs loaded at once, counting everyone's.
#
# Environment: BENCH_COUNTS (default "1000"; "1000 10000" on a machine of
# your own), BENCH_REPS (runs per figure, median kept, default 3), CC.
set -euo pipefail

build=${1:-./build}
counts=${BENCH_COUNTS:-1000}
reps=${BENCH_REPS:-3}
cc=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)
ebpftop=$build/ebpftop

die() {
	echo "bench_export: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || die "run as root"
[ -x "$ebpftop" ] || die "$ebpftop is missing: build first"
[ -x "$build/tests/bench/bench_export" ] ||
	make -C "$build" tests/bench/bench_export >/dev/null || die "cannot build bench_export"

# The integration tests' lock: they must not see our stats and programs.
exec 9>>"${EBPFTOP_TEST_LOCK:-/tmp/ebpftop-integration-tests.lock}"
flock -w 600 9 || die "the integration test lock is busy"

tmp=$(mktemp -d /tmp/ebpftop-bench-export.XXXXXX)
loader=
cleanup() {
	[ -n "$loader" ] && kill "$loader" 2>/dev/null && wait "$loader" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "== building and rendering the exposition (no kernel) =="
"$build/tests/bench/bench_export" 1000 10000

"$cc" -O2 -Wall -o "$tmp/rusage" "$here/rusage.c" || die "cannot build rusage.c"
"$cc" -O2 -Wall -o "$tmp/loadprogs" "$here/loadprogs.c" \
	$(pkg-config --cflags --libs libbpf) || die "cannot build loadprogs.c"

# cpu_us ARGS...: median user+system CPU microseconds of ebpftop ARGS.
cpu_us() {
	for _ in $(seq "$reps"); do
		"$tmp/rusage" "$ebpftop" "$@" | awk '{ print $1 }'
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
free_port() {
	local p
	for _ in $(seq 200); do
		p=$((20000 + RANDOM % 40000))
		ss -Hltn "sport = :$p" | grep -q . || { echo "$p"; return; }
	done
	die "no free port"
}

for n in $counts; do
	loaded=$(bpftool prog show 2>/dev/null | grep -c '^[0-9]' || true)
	[ $((loaded + n)) -le 10000 ] ||
		die "$loaded programs are loaded already: $n more would pass 10,000"
	"$tmp/loadprogs" "$n" >"$tmp/ready" &
	loader=$!
	for _ in $(seq 600); do
		grep -q '^ready' "$tmp/ready" 2>/dev/null && break
		sleep 0.1
	done
	grep -q '^ready' "$tmp/ready" || die "loadprogs $n did not get ready"

	echo "== $n programs loaded (plus $loaded others) =="
	p=$(free_port)
	plain1=$(cpu_us -b -n 1 -d 0.1 -f no-such-program)
	plain21=$(cpu_us -b -n 21 -d 0.1 -f no-such-program)
	p=$(free_port)
	exp1=$(cpu_us -b -q --listen "$p" -n 1 -d 0.1)
	exp21=$(cpu_us -b -q --listen "$p" -n 21 -d 0.1)
	awk -v a="$plain1" -v b="$plain21" -v c="$exp1" -v d="$exp21" 'BEGIN {
		r = (b - a) / 20 / 1000; e = (d - c) / 20 / 1000
		printf "CPU per refresh: %.2f ms without export, %.2f ms with --listen: +%.2f ms\n", r, e, e - r }'

	p=$(free_port)
	"$ebpftop" -b -q --listen "$p" -d 1 &
	ex=$!
	for _ in $(seq 100); do
		curl -s -o /dev/null "http://127.0.0.1:$p/metrics" && break
		sleep 0.1
	done
	sleep 1.5
	for accept in '*/*' 'application/openmetrics-text;version=1.0.0'; do
		for _ in $(seq 20); do
			curl -s -o /dev/null -H "Accept: $accept" \
				-w '%{time_total} %{size_download}\n' "http://127.0.0.1:$p/metrics"
		done | sort -n | awk -v a="$accept" '{ t[NR] = $1; s = $2 }
			END { printf "scrape (%s): median %.2f ms, %d bytes\n", a, t[int((NR + 1) / 2)] * 1000, s }'
	done
	curl -s "http://127.0.0.1:$p/metrics" |
		awk '$1 == "ebpftop_refresh_duration_seconds" { printf "refresh itself: %.1f ms\n", $2 * 1000 }'
	kill "$ex"
	wait "$ex" 2>/dev/null || true
	kill "$loader"
	wait "$loader" 2>/dev/null || true
	loader=
done
