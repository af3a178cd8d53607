#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Hot lines in the TUI, on the demo: ebpftop --demo in a detached tmux
# session (its own socket), filtered to its own programs by pid. The key a
# opens the pane with the classifier's source text; after R lands the
# regression the hottest line is in the loop that recomputes the Fibonacci
# sequence, after R reverts it no longer is; o and w switch order and
# window; a closes the pane and every perf event with it; q quits.
# Before that, bad values of the options exit 2.
#
# Exit: 0 pass, 1 fail, 77 skip (99 instead under EBPFTOP_TEST_STRICT=1).
# shellcheck source=tests/lib/testlib.sh
. "${top_srcdir:-.}/tests/lib/testlib.sh"
set -u

SRC=${top_srcdir:-.}/bpf/xdp_classifier.bpf.c
[ -r "$SRC" ] || die "cannot read $SRC"

# ---- usage: exit 2, one line naming the option ---------------------------------
for bad in "--sample-freq 0" "--sample-freq abc" "--sample-freq 1000001" \
	"--sample-freq -5" "--hot 0" "--hot x" "--sample-event nosuch_event_xyz" \
	"--sample-event cycles,instructions"; do
	# shellcheck disable=SC2086
	err=$("$EBPFTOP" -b -n 1 $bad 2>&1 >/dev/null)
	code=$?
	opt=${bad%% *}
	if [ "$code" = 2 ] && grep -q -- "$opt" <<<"$err" &&
		[ "$(wc -l <<<"$err")" = 1 ]; then
		ok "$bad: exit 2"
	else
		fail "$bad: exit $code, want 2 and one line naming $opt: $err"
	fi
done

[ "$(id -u)" = 0 ] || skip "needs root for the demo and sampling"
# shellcheck source=tests/lib/tmux.sh
. "${top_srcdir:-.}/tests/lib/tmux.sh"
tmux_init hot
lock_integration

# The lines of the slow Fibonacci loop: from its for to the end of its body.
fib_first=$(grep -n 'for (__u32 i = 0; i < XDPC_SLOW_TERMS_MAX' "$SRC" | cut -d: -f1)
fib_last=$(awk -v f="$fib_first" 'NR > f && /b = c;/ { print NR; exit }' "$SRC")
[ -n "$fib_first" ] && [ -n "$fib_last" ] || die "cannot find the Fibonacci loop in $SRC"

tmp=$(mktemp -d /tmp/ebpftop-hot.XXXXXX) || die "mktemp"
cleanup() {
	tmux_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# wait_for TENTHS TEST...: poll every 0.1 s until TEST (a function of
# $last_screen) holds on the screen.
on_screen() {
	screen hot && "$@"
}
wait_for() {
	local n=$1
	shift
	poll "$n" on_screen "$@"
}
show() { printf '%s\n' "--- screen ---" "$last_screen" "--------------" >&2; }

# The first line under the pane's column heads: "SHARE% ... file:LINE ...".
top_line() {
	awk '/SHARE +HEAT/ { getline; print; exit }' <<<"$last_screen" |
		grep -Eo 'xdp_classifier\.bpf\.c:[0-9]+' | cut -d: -f2
}
pane_open() { grep -q "hot lines of $prog xdp_classifier" <<<"$last_screen"; }
pane_closed() { ! grep -q "hot lines of" <<<"$last_screen"; }
# At least three rows of file:line followed by the line's text.
has_source() {
	[ "$(grep -Ec 'xdp_classifier\.bpf\.c:[0-9]+ +[a-z_(*][^ ]* ' <<<"$last_screen")" -ge 3 ]
}
fib_on_top() {
	local l
	l=$(top_line)
	[ -n "$l" ] && [ "$l" -ge "$fib_first" ] && [ "$l" -le "$fib_last" ]
}
fib_not_on_top() {
	local l
	l=$(top_line)
	[ -n "$l" ] && { [ "$l" -lt "$fib_first" ] || [ "$l" -gt "$fib_last" ]; }
}
is_source_order() {
	local prev=0 n=0 l
	for l in $(awk '/SHARE +HEAT/ { on = 1; next } on' <<<"$last_screen" |
		grep -Eo 'xdp_classifier\.bpf\.c:[0-9]+' | cut -d: -f2); do
		[ "$l" -ge "$prev" ] || return 1
		prev=$l
		n=$((n + 1))
	done
	[ "$n" -ge 3 ]
}
cumulative() { grep -q "hot lines of .* cumulative" <<<"$last_screen"; }
perf_fds() { find "/proc/$pid/fd" -lname 'anon_inode:\[perf_event\]' 2>/dev/null | wc -l; }

# Other demos may run: sorted by id, ours is found by the id the demo line
# gives. exec keeps the shell's pid, ebpftop's.
start hot 180 50 \
	"echo \$\$ > $tmp/pid; exec $EBPFTOP --demo -d 0.5 -s id -f xdp_classifier"
for _ in $(seq 50); do [ -s "$tmp/pid" ] && break; sleep 0.1; done
pid=$(cat "$tmp/pid" 2>/dev/null)
[ -n "$pid" ] || die "no pid from the tmux session"
demo_prog() { prog=$(grep -Eo 'demo: program [0-9]+' <<<"$last_screen" | grep -Eo '[0-9]+$'); [ -n "$prog" ]; }
# Our classifier's row among the table's rows (0 is the first).
row=
classifier_listed() {
	demo_prog || return 1
	row=$(awk '/ NAME /{ on = 1; next } on && /xdp_classifier/ { print $1 }' <<<"$last_screen" |
		grep -nx "$prog" | cut -d: -f1)
	[ -n "$row" ]
}
wait_for 100 classifier_listed || { show; die "the demo's classifier is not listed"; }
keys hot Home
for _ in $(seq 2 "$row"); do keys hot Down; done
keys hot a
if wait_for 50 pane_open && wait_for 50 has_source; then
	ok "a opens the pane with the classifier's source text"
else
	show
	fail "a did not open the pane with source text"
fi
n=$(perf_fds)
[ "$n" -ge 1 ] && ok "sampling holds $n perf events" || fail "no perf event open while sampling"

keys hot R
if wait_for 150 fib_on_top; then
	ok "after R the hottest line is in the Fibonacci loop (line $(top_line))"
else
	show
	fail "after R the hottest line ($(top_line)) is not in lines $fib_first-$fib_last"
fi
keys hot R
if wait_for 150 fib_not_on_top; then
	ok "after the revert it is not (line $(top_line))"
else
	show
	fail "after the revert the hottest line is still $(top_line)"
fi
keys hot o
wait_for 30 is_source_order && ok "o: source order" || { show; fail "o did not sort the lines by source order"; }
keys hot w
wait_for 30 cumulative && ok "w: cumulative window" || { show; fail "w did not switch to the cumulative window"; }

keys hot a
if wait_for 30 pane_closed; then
	ok "a closes the pane"
else
	show
	fail "a did not close the pane"
fi
n=$(perf_fds)
[ "$n" = 0 ] && ok "no perf event open after a" || fail "$n perf events still open after a"
keys hot a
wait_for 50 pane_open || { show; fail "a did not reopen the pane"; }
keys hot q
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
	fail "ebpftop still runs after q"
else
	ok "q quits while sampling"
fi
finish
