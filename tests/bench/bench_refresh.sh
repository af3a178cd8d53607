#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What one ebpftop refresh costs with many programs loaded, beside bpftool.
#
#   sudo tests/bench/bench_refresh.sh [path/to/ebpftop]
#
# For each N (1000, then 10000) a helper loads N two-instruction socket
# filters and holds them. ebpftop then runs in batch mode for 1 and for 21
# refreshes; the difference of the two CPU times over 20 is the cost of one
# steady-state refresh (start-up and the first refresh cancel out). Peak RSS
# is the K=21 run's. bpftool prog show is timed over the same programs.
# This prints figures and targets; it does not pass or fail on them.
#
# Environment: BENCH_COUNTS (default "1000 10000"), BENCH_REPS (runs per
# figure, median kept, default 3), BPFTOOL_REPS (default 5), CC.
set -euo pipefail
shopt -s inherit_errexit

ebpftop=${1:-./build/ebpftop}
counts=${BENCH_COUNTS:-1000 10000}
reps=${BENCH_REPS:-3}
bt_reps=${BPFTOOL_REPS:-5}
cc=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "bench_refresh: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "run as root (loading programs needs CAP_BPF)"
[ -x "$ebpftop" ] || die "no ebpftop binary at '$ebpftop': build first or pass its path"
ebpftop=$(cd "$(dirname "$ebpftop")" && pwd)/$(basename "$ebpftop")
command -v "$cc" >/dev/null || die "no C compiler: apt-get install gcc"
pkg-config --exists libbpf || die "libbpf not found: apt-get install libbpf-dev pkg-config"
bpftool=$(command -v bpftool || true)
[ -n "$bpftool" ] || [ ! -x /usr/sbin/bpftool ] || bpftool=/usr/sbin/bpftool

tmp=$(mktemp -d /tmp/ebpftop-bench.XXXXXX)
helper=

cleanup() {
	if [ -n "$helper" ]; then
		kill "$helper" 2>/dev/null || true
		wait "$helper" 2>/dev/null || true
		helper=
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# shellcheck disable=SC2046
"$cc" -O2 -Wall -o "$tmp/loadprogs" "$here/loadprogs.c" \
	$(pkg-config --cflags --libs libbpf) || die "cannot build loadprogs.c"
"$cc" -O2 -Wall -o "$tmp/rusage" "$here/rusage.c" || die "cannot build rusage.c"

# Start the helper with N programs and wait until they are all loaded.
load() {
	local n=$1

	: >"$tmp/ready"
	"$tmp/loadprogs" "$n" >"$tmp/ready" &
	helper=$!
	for _ in $(seq 600); do
		grep -q '^ready' "$tmp/ready" && return 0
		kill -0 "$helper" 2>/dev/null || break
		sleep 0.2
	done
	die "the helper did not load $n programs (see above)"
}

unload() {
	kill "$helper" 2>/dev/null || true
	wait "$helper" 2>/dev/null || true
	helper=
}

# "cpu_us wall_us maxrss_kib status" of one run, stdout discarded.
measure() {
	local out status

	out=$("$tmp/rusage" "$@")
	status=${out##* }
	[ "$status" = 0 ] || die "'$*' exited with status $status"
	echo "$out"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ms of CPU per steady-state refresh (median of $reps) and peak RSS in KiB.
bench_ebpftop() {
	local a b

	: >"$tmp/per"
	: >"$tmp/rss"
	: >"$tmp/first"
	for _ in $(seq "$reps"); do
		a=$(measure "$ebpftop" -b -n 1 -d 0.1 "$@")
		b=$(measure "$ebpftop" -b -n 21 -d 0.1 "$@")
		echo "$a $b" | awk '{ printf "%.3f\n", ($5 - $1) / 20 / 1000 }' >>"$tmp/per"
		echo "$a" | awk '{ printf "%.1f\n", $1 / 1000 }' >>"$tmp/first"
		echo "$b" | awk '{ print $3 }' >>"$tmp/rss"
	done
	echo "$(median <"$tmp/per") $(median <"$tmp/first") $(sort -n "$tmp/rss" | tail -n 1)"
}

# Mean wall-clock ms of one bpftool invocation.
bench_bpftool() {
	[ -n "$bpftool" ] || { echo "-"; return; }
	: >"$tmp/bt"
	for _ in $(seq "$bt_reps"); do
		measure "$bpftool" "$@" prog show | awk '{ print $2 / 1000 }' >>"$tmp/bt"
	done
	awk '{ s += $1 } END { printf "%.1f\n", s / NR }' "$tmp/bt"
}

others=$(pgrep -x ebpftop | wc -l || true)
rows=
for n in $counts; do
	echo "loading $n programs..." >&2
	# ebpftop holds one fd per program and raises its soft limit only as
	# far as the hard one: make room, as an administrator would.
	[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge $((n + 1024)) ] ||
		ulimit -n $((n + 1024))
	load "$n"
	seen=$("$ebpftop" -b -n 1 -f bench_ | grep -c ' bench_' || true)
	[ "$seen" = "$n" ] || die "ebpftop sees $seen of the $n programs"
	echo "measuring ebpftop (text, json) and bpftool over $n programs..." >&2
	# A filter that matches nothing: collection and analysis, no output.
	out=$(bench_ebpftop -f no-such-program-here)
	read -r coll _ _ <<<"$out"
	out=$(bench_ebpftop)
	read -r text first_text rss_text <<<"$out"
	out=$(bench_ebpftop -j)
	read -r json first_json rss_json <<<"$out"
	bt=$(bench_bpftool)
	btj=$(bench_bpftool -j)
	rss=$(( rss_text > rss_json ? rss_text : rss_json ))
	rows="$rows$n $coll $text $json $first_text $first_json $rss $bt $btj
"
	unload
done

echo
echo "ebpftop refresh benchmark: $(uname -r), $(nproc) cpus, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "binary: $ebpftop ($("$ebpftop" -V))"
echo "cpu/refresh = (cpu(-n 21) - cpu(-n 1)) / 20, user+system, median of $reps runs"
echo "collect = with a filter that matches nothing: collection and analysis, no output"
echo "first run = cpu of a whole -n 1 run (start-up and first refresh)"
echo "bpftool = mean wall time of one 'bpftool [-j] prog show', $bt_reps runs"
[ "$others" = 0 ] || echo "note: $others other ebpftop process(es) were running and share the cpus"
echo
printf '%7s | %-33s | %-15s | %-14s | %-17s\n' "" " ebpftop ms cpu/refresh" "ebpftop first" "ebpftop max" "bpftool ms/run"
printf '%7s | %7s %7s %7s %9s | %7s %7s | %7s %6s | %8s %8s\n' \
	N collect text json target text json "RSS MiB" target show "-j show"
printf '%s' "$rows" | while read -r n coll text json ft fj rss bt btj; do
	printf '%7s | %7s %7s %7s %9s | %7s %7s | %7s %6s | %8s %8s\n' "$n" \
		"$coll" "$text" "$json" "<= $(awk -v n="$n" 'BEGIN { print n / 1000 }')" \
		"$ft" "$fj" "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" \
		"<= 16" "$bt" "$btj"
done
echo
echo "targets are a compass, not a gate: 1 ms of cpu per refresh per 1,000 programs, rss <= 16 MiB"
