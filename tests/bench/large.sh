#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ebpftop with 100,000 programs loaded: it lists, refreshes, sorts, filters
# and scrolls them all, in batch mode and in the TUI, without error and
# without running short of file descriptors (it holds none per program and
# leaves RLIMIT_NOFILE as it found it). Prints what it measured; exits 1
# if any check fails. Not part of make check: loading 100,000 programs
# takes about 450 MiB of kernel memory and a minute.
#
#   sudo tests/bench/large.sh [path/to/ebpftop]
#
# Environment: LARGE_COUNT (default 100000, at least 1000), CC.
#
# Helpers run through poll and traps, which shellcheck cannot follow.
# shellcheck disable=SC2317
set -u

ebpftop=${1:-./build/ebpftop}
n=${LARGE_COUNT:-100000}
cc=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)
failures=0

die() {
	echo "large: $*" >&2
	exit 1
}

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

ok() {
	echo "ok: $*"
}

[ "$(id -u)" = 0 ] || die "run as root (loading programs needs CAP_BPF)"
[ -x "$ebpftop" ] || die "no ebpftop binary at '$ebpftop': build first or pass its path"
ebpftop=$(cd "$(dirname "$ebpftop")" && pwd)/$(basename "$ebpftop")
[ "$n" -ge 1000 ] 2>/dev/null || die "LARGE_COUNT must be a number of at least 1000"
command -v tmux >/dev/null || die "no tmux: apt-get install tmux"
command -v jq >/dev/null || die "no jq: apt-get install jq"
pkg-config --exists libbpf || die "libbpf not found: apt-get install libbpf-dev pkg-config"

tmp=$(mktemp -d /tmp/ebpftop-large.XXXXXX)
# tests/lib/tmux.sh's tui_cmd runs $EBPFTOP.
# shellcheck disable=SC2034
EBPFTOP=$ebpftop
helper=
# Names of this run's own: other programs may be loaded.
prefix=L$(($$ % 100000))_

# shellcheck source=tests/lib/tmux.sh
. "$here/../lib/tmux.sh"
tm_fail() {
	echo "FAIL: $*" >&2
	[ -n "${last_screen:-}" ] && printf '%s\n' "--- screen:" "$last_screen" >&2
	exit 1
}

# shellcheck source=tests/bench/loadprogs.sh
. "$here/loadprogs.sh"

cleanup() {
	tmux_cleanup
	lp_stop
	rm -rf "$tmp"
}
lp_traps cleanup
lp_build

now() {
	date +%s.%N
}

# How many of our programs' names contain @1 (a prefix of digits).
expect_matches() {
	awk -v n="$n" -v d="$1" 'BEGIN {
		c = 0
		for (i = 0; i < n; i++)
			if (index(i "", d) == 1)
				c++
		print c
	}'
}

echo "loading $n programs..." >&2
t0=$(now)
"$tmp/loadprogs" "$n" "$prefix" >"$tmp/ready" &
helper=$!
poll 3000 grep -q '^ready' "$tmp/ready" ||
	die "the helper did not load $n programs: $(cat "$tmp/ready")"
load_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
ok "$n programs loaded in ${load_s} s"
limit_before=$(ulimit -Sn)

# Batch: three refreshes, every one of our programs in each.
"$ebpftop" -b -n 3 -d 1 >"$tmp/text" 2>"$tmp/err" || fail "-b -n 3 exited $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "-b wrote to stderr: $(head -3 "$tmp/err")"
got=$(grep -c " ${prefix}[0-9]* " "$tmp/text")
[ "$got" = $((3 * n)) ] && ok "text: 3 refreshes list ${n} programs each" ||
	fail "text: $got rows of our programs in 3 refreshes, expected $((3 * n))"
total=$(sed -n '1s/.*programs \([0-9]*\).*/\1/p' "$tmp/text")
[ "$total" -ge "$n" ] || fail "text: the header counts $total programs, fewer than our $n"

# JSON Lines: two records, each valid, each with all of our programs.
"$ebpftop" -b -j -n 2 -d 1 >"$tmp/json" 2>"$tmp/err" || fail "-b -j exited $?: $(cat "$tmp/err")"
jq -c --arg p "$prefix" '[.programs[] | select(.name // "" | startswith($p))] | length' \
	"$tmp/json" >"$tmp/jcount" 2>"$tmp/err" || fail "JSON does not parse: $(head -3 "$tmp/err")"
[ "$(sort -u "$tmp/jcount")" = "$n" ] && [ "$(wc -l <"$tmp/jcount")" = 2 ] &&
	ok "json: 2 records, $n of our programs in each" ||
	fail "json: our program counts per record: $(tr '\n' ' ' <"$tmp/jcount")"

# Sorting: by name (ascending), by id; every row of ours in order.
"$ebpftop" -b -n 1 -s name -f "$prefix" >"$tmp/byname" || fail "-s name exited $?"
grep " ${prefix}[0-9]* " "$tmp/byname" | awk '{ print $3 }' >"$tmp/names"
[ "$(wc -l <"$tmp/names")" = "$n" ] || fail "-s name: $(wc -l <"$tmp/names") rows"
if sort -c "$tmp/names" 2>/dev/null || LC_ALL=C sort -c "$tmp/names" 2>/dev/null; then
	ok "-s name: $n rows in name order"
else
	fail "-s name: rows out of order"
fi
"$ebpftop" -b -n 1 -s id -f "$prefix" >"$tmp/byid" || fail "-s id exited $?"
grep " ${prefix}[0-9]* " "$tmp/byid" | awk '{ print $1 }' >"$tmp/ids"
if [ "$(wc -l <"$tmp/ids")" = "$n" ] && { sort -n -c "$tmp/ids" 2>/dev/null || sort -n -r -c "$tmp/ids" 2>/dev/null; }; then
	ok "-s id: $n rows in id order"
else
	fail "-s id: $(wc -l <"$tmp/ids") rows, or out of order"
fi

# Filtering: a prefix of digits picks exactly the names that start so.
digits=$((n / 23))
want=$(expect_matches "$digits")
got=$("$ebpftop" -b -n 1 -f "$prefix$digits" | grep -c " $prefix${digits}[0-9]* ")
[ "$got" = "$want" ] && ok "-f $prefix$digits: $got rows, as expected" ||
	fail "-f $prefix$digits: $got rows, expected $want"

# File descriptors: a few, not one per program; RLIMIT_NOFILE untouched.
"$ebpftop" -b -n 6 -d 1 -f no-such-program >/dev/null &
bp=$!
sleep 3
fds=$(find "/proc/$bp/fd" -mindepth 1 2>/dev/null | wc -l)
lim=$(awk '/^Max open files/ { print $4 }' "/proc/$bp/limits" 2>/dev/null)
wait "$bp" || fail "batch run for the fd count exited $?"
[ "$fds" -gt 0 ] && [ "$fds" -le 32 ] && ok "batch: $fds fds open with $n programs loaded" ||
	fail "batch: $fds fds open with $n programs loaded"
[ "$lim" = "$limit_before" ] && ok "RLIMIT_NOFILE stays $lim" ||
	fail "RLIMIT_NOFILE: $lim in ebpftop, $limit_before outside"

# The TUI: the whole list, sort keys, a filter, scrolling, and quit.
tmux_init large
s=tui
# Sorted by id, the first row is the lowest id: known from batch mode.
top=$("$ebpftop" -b -n 1 -s id | awk '$1 == "ID" { getline; print $1; exit }')
[ -n "$top" ] || die "batch mode lists no program"
start "$s" 200 50 "$(tui_cmd "$s" screen-256color -d 1 -s id)"
wait_has "$s" "programs: [0-9]+ \([0-9]+ shown\)" 300
tot=$(printf '%s\n' "$last_screen" | sed -n 's/.*programs: \([0-9]*\) .*/\1/p' | head -1)
[ "${tot:-0}" -ge "$n" ] && ok "tui: lists $tot programs" || fail "tui: header says ${tot:-nothing}"
tp=$(pgrep -n -f "^$ebpftop -d 1 -s id$" || true)
keys "$s" '>'
wait_has "$s" "^sort: " 100
keys "$s" '<'
keys "$s" / "$prefix$digits" Enter
wait_has "$s" "\($want shown\)" 100
ok "tui: filter $prefix$digits shows $want"
keys "$s" / Escape
wait_lacks "$s" "^sort: .*filter: " 100
shown=$(printf '%s\n' "$last_screen" | sed -n 's/.*programs: [0-9]* (\([0-9]*\) shown).*/\1/p' | head -1)
[ "${shown:-0}" -ge "$n" ] && ok "tui: filter cleared, $shown shown" ||
	fail "tui: after clearing the filter, ${shown:-no} programs shown"
# The first row goes off screen at the end and comes back at Home. (After
# the filter, the view still shows the row that was selected in it.)
keys "$s" Home
wait_has "$s" "^ *$top " 100
keys "$s" End
wait_lacks "$s" "^ *$top " 100
wait_has "$s" "^ *[0-9]+ +[a-z_]+ " 100
keys "$s" PPage PPage Home
wait_has "$s" "^ *$top " 100
keys "$s" NPage NPage
wait_lacks "$s" "^ *$top " 100
ok "tui: scrolled to the end and back (row $top left the screen and came back)"
if [ -n "$tp" ] && [ -d "/proc/$tp" ]; then
	fds=$(find "/proc/$tp/fd" -mindepth 1 2>/dev/null | wc -l)
	[ "$fds" -le 32 ] && ok "tui: $fds fds open" || fail "tui: $fds fds open"
	hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$tp/status")
else
	fail "tui: cannot find the ebpftop process"
	hwm=
fi
keys "$s" q
wait_exit "$s" 100
ok "tui: quit with status 0"
[ -s "$tmp/err.$s" ] && fail "tui wrote to stderr: $(head -3 "$tmp/err.$s")"

# Figures: CPU per steady refresh ((cpu(-n 11) - cpu(-n 1)) / 10, median
# of 3), first frame (cpu of -n 1, median of 3), peak RSS.
cpu() {
	"$tmp/rusage" "$ebpftop" "$@" | awk '{ print $1 }'
}
median3() {
	printf '%s\n' "$@" | sort -n | sed -n 2p
}
per_refresh() {
	local r=() f=() x y

	for _ in 1 2 3; do
		x=$(cpu -b -n 1 -d 0.1 "$@")
		y=$(cpu -b -n 11 -d 0.1 "$@")
		f+=("$x")
		r+=("$(awk -v a="$x" -v b="$y" 'BEGIN { printf "%.1f", (b - a) / 10 / 1000 }')")
	done
	echo "$(median3 "${r[@]}") $(median3 "${f[@]}")"
}
read -r text_ms first_us <<<"$(per_refresh)"
read -r json_ms _ <<<"$(per_refresh -j)"
rss=$("$tmp/rusage" "$ebpftop" -b -n 6 -d 0.1 | awk '{ print $3 }')

echo "releasing $n programs..." >&2
t0=$(now)
kill "$helper"
wait "$helper" || fail "the helper failed to let its programs go"
helper=
rel_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')

echo
echo "ebpftop with $n programs ($total loaded in all): $(uname -r), $(nproc) cpus, $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '%-34s %10s\n' "load (helper)" "${load_s} s" "release (helper, in batches)" "${rel_s} s" \
	"text, ms cpu per refresh" "$text_ms" \
	"json, ms cpu per refresh" "$json_ms" \
	"first frame (-n 1 text), ms cpu" "$(awk -v a="$first_us" 'BEGIN { printf "%.0f", a / 1000 }')" \
	"peak RSS, batch, MiB" "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" \
	"peak RSS, TUI, MiB" "$(awk -v k="${hwm:-0}" 'BEGIN { printf "%.1f", k / 1024 }')"
echo
if [ "$failures" -ne 0 ]; then
	echo "large: $failures check(s) failed" >&2
	exit 1
fi
echo "large: all checks passed"
