#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The details pane's insights and history graph in tmux: the ISA column,
# the isa/subprogs/calls/code lines, the ns/run and runs/s graphs of the
# selected program (braille, then ASCII), the graph following the
# selection, and g cycling the window. Our own tests/testload runs two
# programs at known rates; every assertion is about them.
#
# Exit: 0 pass, 1 fail, 77 skip (99 instead when EBPFTOP_TEST_STRICT=1).
#
# shellcheck disable=SC2317
set -u

srcroot=$(cd "$(dirname "$0")/.." && pwd)

# shellcheck source=tests/lib/testlib.sh
. "$srcroot/tests/lib/testlib.sh"
# shellcheck source=tests/lib/testload.sh
. "$srcroot/tests/lib/testload.sh"

fail_fast

step="testload"
tl_test ins-tui t
# shellcheck source=tests/lib/tmux.sh
. "$srcroot/tests/lib/tmux.sh"
tmux_init ins
test_cleanup() {
	tmux_cleanup
}
xdp=$tl_t_xdp
sock=$tl_t_socket
tl_ok t rate xdp 2000 && tl_ok t rate socket 200 ||
	fail "testload did not take rate: $(cat "$tmp/t.err")"
ok "testload: xdp $xdp at 2000/s, socket $sock at 200/s"

# The top label of the runs/s graph (the second "┤" or "+" tick of the
# first plot row), as a number.
runs_top() {
	local line v
	line=$(grep -m1 -A1 -E "runs/s, last" <<<"$last_screen" | tail -n1) || return 1
	v=$(sed -E 's/.*[^0-9.]([0-9.]+k?)(┤|\+).*/\1/' <<<"$line")
	[[ $v =~ ^[0-9.]+k?$ ]] || return 1
	[[ $v == *k ]] && v=$(awk -v x="${v%k}" 'BEGIN { print x * 1000 }')
	echo "$v"
}

# runs_top_in SESSION LO HI: the runs/s graph's top label is in [LO, HI].
runs_top_in() {
	local v
	screen "$1" || return 1
	v=$(runs_top) || return 1
	awk -v v="$v" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

# has_braille SESSION: the screen shows braille dots (U+2801..U+28FF).
has_braille() {
	screen "$1" && grep -qP '[\x{2801}-\x{28ff}]' <<<"$last_screen"
}

# select_prog SESSION ID: select program ID (the table is sorted by id, so
# rows do not move): Home, then j once per row above it.
select_prog() {
	local n=0 id
	screen "$1" || return 1
	while read -r id; do
		[ "$id" = "$2" ] && break
		n=$((n + 1))
	done < <(sed -n 's/^ *\([0-9][0-9]*\) .*/\1/p' <<<"$last_screen")
	keys "$1" Home
	for _ in $(seq "$n"); do
		keys "$1" j
	done
	wait_has "$1" "^ program $2 "
}

step="braille"
m=main
start "$m" 160 50 "$(tui_cmd "$m" xterm-256color -d 0.3 -s id -f _test_)"
wait_has "$m" "^ *ID[^ ]* +TYPE +NAME.* ISA"
keys "$m" Enter
wait_has "$m" "^ program [0-9]+ "
select_prog "$m" "$xdp"
wait_has "$m" "^ isa +v[1-4], read after the verifier"
screen_has "$m" "^ subprogs +xdp_test_pass [0-9]+ insns" || fail "no subprogs line"
screen_has "$m" "^ code +xlated [0-9]+ B, jited [0-9]+ B" || fail "no code line"
wait_has "$m" "ns/run, last 1 min" 50
screen_has "$m" "runs/s, last 1 min" || fail "no runs/s graph"
# braille dots in the plot, a labelled axis
poll 50 has_braille "$m" || fail "no braille in the graph"
screen_has "$m" "[0-9.]+k? *┤" || fail "no y labels"
poll 50 runs_top_in "$m" 1000 3000 || fail "runs/s top for xdp at 2000/s: $(runs_top)"
ok "the graph of program $xdp: braille, y labels, runs/s scale $(runs_top)"

step="follows selection"
select_prog "$m" "$sock"
wait_has "$m" "runs/s, last 1 min"
poll 80 runs_top_in "$m" 80 400 || fail "runs/s top for socket at 200/s: $(runs_top)"
ok "the graph follows the selection to program $sock: runs/s scale $(runs_top)"

step="window"
keys "$m" g
wait_has "$m" "ns/run, last 5 min"
keys "$m" g
wait_has "$m" "ns/run, last 15 min"
keys "$m" g
wait_has "$m" "ns/run, last 1 min"
ok "g cycles 1, 5, 15 minutes"
keys "$m" q
wait_exit "$m"

step="ascii"
a=ascii
start "$a" 160 50 "LC_ALL=C $(tui_cmd "$a" xterm-256color -d 0.3 -s id -f _test_)"
wait_has "$a" "^ *ID[^ ]* +TYPE +NAME"
keys "$a" Enter
wait_has "$a" "^ program [0-9]+ "
select_prog "$a" "$xdp"
wait_has "$a" "ns/run, last 1 min" 50
poll 50 screen_has "$a" '\| *\*|\* *\*|[0-9.]+k? *\+' || fail "no ASCII plot"
! has_braille "$a" || fail "braille without a UTF-8 locale"
ok "ASCII graph without a UTF-8 locale"
keys "$a" q
wait_exit "$a"
finish
