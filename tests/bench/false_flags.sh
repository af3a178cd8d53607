#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How often the regression detector flags programs that did not regress.
#
#   sudo tests/bench/false_flags.sh [BUILDDIR] [SECONDS]
#
# tests/testload (from BUILDDIR, default ".") loads its test programs and
# drives three of them at steady rates with BPF_PROG_TEST_RUN (xdp 5000/s,
# socket 3000/s, the long-named one 1000/s) for SECONDS (default 600);
# `ebpftop -j -d DELAY` (DELAY from $DELAY, default 1) watches them, with
# the default --regress-threshold and --regress-window unless EBPFTOP_ARGS
# says otherwise. Nothing changes in the programs, so every flag is a false
# one. Prints the number of refreshes with any of them flagged, the flags
# per program and their worst change. A figure, not a pass or a fail.
#
# Its ebpftop holds run-time stats on for the whole run, so tests that check
# that stats go off (tests/test_stats) fail meanwhile: do not run both.
set -euo pipefail

builddir=${1:-.}
secs=${2:-600}
delay=${DELAY:-1}
ebpftop=$builddir/ebpftop
testload=$builddir/tests/testload

die() {
	echo "false_flags: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "run as root (loading programs needs CAP_BPF)"
[ -x "$ebpftop" ] || die "no ebpftop in '$builddir': build first or pass the build directory"
[ -x "$testload" ] || die "no tests/testload in '$builddir': run make check TESTS= first"
command -v jq >/dev/null || die "needs jq (apt-get install jq)"
[[ $secs =~ ^[0-9]+$ && $secs -gt 0 ]] || die "SECONDS must be a whole number"

tmp=$(mktemp -d /tmp/ebpftop-false-flags.XXXXXX)
tl=

cleanup() {
	exec 8>&- 2>/dev/null || true
	if [ -n "$tl" ]; then
		kill "$tl" 2>/dev/null || true
		wait "$tl" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkfifo "$tmp/in"
"$testload" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
tl=$!
exec 8>"$tmp/in"
for _ in $(seq 100); do
	grep -q '^{' "$tmp/out" && break
	sleep 0.1
done
ids=$(head -n1 "$tmp/out")
pid=$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' <<<"$ids")
[ -n "$pid" ] || die "testload did not start: $(cat "$tmp/err")"
echo "rate xdp 5000" >&8
echo "rate socket 3000" >&8
echo "rate long 1000" >&8

n=$(awk -v s="$secs" -v d="$delay" 'BEGIN { printf "%d", s / d }')
echo "# testload $pid: $ids"
echo "# ebpftop -j -d $delay -n $n -f $pid ${EBPFTOP_ARGS:-} (about $secs s)"
# shellcheck disable=SC2086
"$ebpftop" -j -d "$delay" -n "$n" -f "$pid" ${EBPFTOP_ARGS:-} >"$tmp/rec.jsonl"

total=$(wc -l <"$tmp/rec.jsonl")
flagged=$(jq -c '[.programs[] | select(.regression != null)] | length' \
	"$tmp/rec.jsonl" | awk '$1 > 0 { n++ } END { print n + 0 }')
echo "refreshes: $total"
echo "refreshes with a program flagged: $flagged"
# Per program: refreshes flagged, flags raised (null -> object), worst change.
jq -r '.programs[] | [.name // "(unnamed)", (.regression != null),
	(.regression.change_pct // 0), (.ns_per_run // "null")] | @tsv' \
	"$tmp/rec.jsonl" |
	awk -F '\t' '
	{
		seen[$1] = 1
		if ($4 != "null") { cnt[$1]++; sum[$1] += $4 }
		if ($2 == "true") {
			fl[$1]++
			if (!prev[$1]) ev[$1]++
			if ($3 > worst[$1]) worst[$1] = $3
		}
		prev[$1] = ($2 == "true")
	}
	END {
		for (p in seen) {
			if (!cnt[p]) {
				printf "  %-40s did not run\n", p
				continue
			}
			printf "  %-40s mean %7.1f ns/run  flagged %d refreshes, %d flags, worst %+.0f%%\n",
				p, sum[p] / cnt[p], fl[p], ev[p], worst[p]
		}
	}'
