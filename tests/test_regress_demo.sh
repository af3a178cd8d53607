#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The regression detector on the workshop demo, end to end:
#  - batch: `ebpftop --demo -b --demo-regress-after 4` lands the regression
#    by itself; the classifier (the demo's own, by the program id its demo
#    line names) is busy, unflagged before the switch, flagged within 3
#    refreshes after it and from then on, with a REGRESSION: line; the class
#    counters fill up; the JSON record carries the "demo" object;
#  - TUI (tmux): R lands the regression and the banner and the row marker
#    come; R again reverts it and they go.
# Other demos may run on the machine at the same time: only ours is checked.
#
# Exit: 0 pass, 1 fail, 77 skip (99 instead of a skip when
# EBPFTOP_TEST_STRICT=1). Run from the build directory.
set -u

# shellcheck source=tests/lib/testlib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/testlib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (BPF programs, a network namespace)"
EBPFTOP=$(cd "$(dirname "$EBPFTOP")" && pwd)/$(basename "$EBPFTOP")
lock_integration
if ! run_timeout 30 "$EBPFTOP" --demo -b -n 1 >/dev/null 2>"${TMPDIR:-/tmp}/rd.$$"; then
	msg=$(head -n1 "${TMPDIR:-/tmp}/rd.$$")
	rm -f "${TMPDIR:-/tmp}/rd.$$"
	skip "ebpftop --demo does not run here: $msg"
fi
rm -f "${TMPDIR:-/tmp}/rd.$$"

tmp=$(mktemp -d /tmp/ebpftop-regress-demo.XXXXXX) || die "mktemp"
# shellcheck source=tests/lib/tmux.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/tmux.sh"
tmux_init rdemo
cleanup() {
	tmux_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- batch, with --demo-regress-after ---------------------------------------

# 26 refreshes of 0.5 s; the regression lands after 4 s (the 9th or so).
run_timeout 60 "$EBPFTOP" --demo -b -d 0.5 -n 26 --demo-regress-after 4 \
	>"$tmp/batch" 2>"$tmp/batch.err"
code=$?
[ "$code" = 0 ] || fail "ebpftop --demo -b exited with $code: $(head -c 500 "$tmp/batch.err")"
[ -s "$tmp/batch.err" ] && fail "ebpftop --demo -b wrote to stderr: $(head -c 500 "$tmp/batch.err")"

# One line per refresh: "N PROG REGRESSED RUNS/S FLAG BANNER COUNTS"
# (FLAG is the tenth field: ISA comes before it).
awk '
	/^ebpftop / { n++; prog = ""; reg = ""; rps = "?"; flag = "?"; ban = 0; cnt = "" }
	/^demo: program / {
		prog = $3; reg = $NF
		cnt = ""
		for (i = 4; i < NF - 1; i += 2) cnt = cnt (cnt ? "," : "") $(i + 1)
	}
	/^REGRESSION: xdp_classifier \+[0-9]+% ns\/run \(id / {
		id = $6; sub(/,$/, "", id); if (id == prog) ban = 1
	}
	/^ *[0-9]+ xdp +xdp_classifier / { if ($1 == prog) { rps = $5; flag = $10 } }
	/^$/ { if (n) print n, prog, reg, rps, flag, ban, cnt }
' "$tmp/batch" >"$tmp/blocks"
[ "$(wc -l <"$tmp/blocks")" = 26 ] ||
	fail "expected 26 refreshes, parsed $(wc -l <"$tmp/blocks"): $(head -c 800 "$tmp/batch")"

prog=$(awk 'NR == 1 { print $2 }' "$tmp/blocks")
[[ $prog =~ ^[0-9]+$ ]] || fail "no 'demo: program ID' line: $(head -n 3 "$tmp/batch")"
landed=0 flagged=0
while read -r n p reg rps flag ban cnt; do
	[ "$p" = "$prog" ] || fail "refresh $n: the demo line names program $p, not $prog"
	[ "$flag" != "?" ] || fail "refresh $n: no row for the classifier $prog"
	if [ "$n" -ge 3 ]; then
		awk -v r="$rps" 'BEGIN { exit !(r + 0 >= 1000) }' ||
			fail "refresh $n: the classifier ran $rps times/s, want 1000 or more"
	fi
	if [ "$reg" = yes ] && [ "$landed" = 0 ]; then
		landed=$n
	fi
	if [ "$flag" != - ]; then
		[[ $flag =~ ^\+[0-9]+%$ ]] || fail "refresh $n: FLAG '$flag'"
		[ "$landed" != 0 ] || fail "refresh $n: flagged ($flag) before the regression landed"
		[ "$ban" = 1 ] || fail "refresh $n: flagged but no REGRESSION: line for program $prog"
		[ "$flagged" = 0 ] && flagged=$n
	else
		[ "$ban" = 0 ] || fail "refresh $n: a REGRESSION: line for program $prog, which is not flagged"
		[ "$flagged" = 0 ] || fail "refresh $n: the flag went away (flagged at $flagged, never reverted)"
	fi
	last_cnt=$cnt
done <"$tmp/blocks"
[ "$landed" != 0 ] || fail "the regression never landed (--demo-regress-after 4)"
[ "$flagged" != 0 ] || fail "the classifier was never flagged (landed at refresh $landed)"
# The refresh that says "regressed: yes" sampled just after it landed.
[ $((flagged - landed)) -le 3 ] ||
	fail "landed at refresh $landed, flagged only at $flagged (more than 3 later)"
IFS=, read -r -a counts <<<"$last_cnt"
[ "${#counts[@]}" = 5 ] || fail "the demo line does not have five classes: $last_cnt"
for c in "${counts[@]}"; do
	[ "$c" -gt 0 ] || fail "a class counter is still 0: $last_cnt"
done
ok "batch: program $prog landed at refresh $landed, flagged at $flagged ($(awk -v f="$flagged" '$1 == f { print $5 }' "$tmp/blocks")), counters $last_cnt"

# JSON: the record gains a "demo" object, and nothing else changes.
run_timeout 30 "$EBPFTOP" --demo -j -d 0.3 -n 2 >"$tmp/json" 2>"$tmp/json.err" ||
	fail "ebpftop --demo -j: $(head -c 300 "$tmp/json.err")"
n=$(grep -cE '"profile":(null|\{.*\}),"hot":(null|\{.*\}),"demo":\{"regressed":false,"prog_id":[0-9]+,"classes":\{"fizzbuzz":[0-9]+,"fizz":[0-9]+,"buzz":[0-9]+,"fibonacci":[0-9]+,"other":[0-9]+\}\}\}$' "$tmp/json")
[ "$n" = 2 ] || fail "JSON records without the demo object: $(tail -c 300 "$tmp/json")"
if ! "$top_builddir/tests/lib/jsonl_check" <"$tmp/json" >/dev/null; then
	fail "ebpftop --demo -j printed a line that is not a JSON object"
fi
ok "JSON: a \"demo\" object with regressed, prog_id and the five classes"

# ---- TUI: R lands the regression, R reverts it ------------------------------

s=demo$$
start "$s" 140 40 "$(tui_cmd "$s" screen --demo -d 0.5 -f xdp_classifier)"
wait_has "$s" "^demo: program [0-9]+  fizzbuzz " 150
prog=$(grep -oE '^demo: program [0-9]+' <<<"$last_screen" | awk '{ print $3 }')
screen_has "$s" "regressed: no" || fail "the demo line does not say 'regressed: no'"
wait_has "$s" "^ *$prog +xdp +xdp_classifier "
# Select our classifier and wait for its baseline (other demos may be listed).
keys "$s" Home Enter
wait_has "$s" "^ program [0-9]+ "
for _ in $(seq 20); do
	screen_has "$s" "^ program $prog " && break
	keys "$s" j
	sleep 0.2
done
wait_has "$s" "^ program $prog "
wait_has "$s" "^ regress +baseline [0-9.]+ ns/run" 100
ok "TUI: demo program $prog learnt its baseline"

keys "$s" R
wait_has "$s" "regression landed"
wait_has "$s" "regressed: yes"
wait_has "$s" "^ *$prog +xdp +xdp_classifier .* ▲\+[0-9]+%" 60
wait_has "$s" "^REGRESSION: xdp_classifier \+[0-9]+% ns/run"
ok "R: regression landed, banner and marker on program $prog"

keys "$s" R
wait_has "$s" "regression reverted"
wait_has "$s" "regressed: no"
# The flag clears a few refreshes after the cost is back down; a spell
# of host noise can hold it up for some seconds more.
wait_lacks "$s" "^ *$prog +xdp +xdp_classifier .* ▲\+[0-9]+%" 200
# The banner goes too, unless another demo's classifier is flagged.
if screen_has "$s" "▲\+[0-9]+%"; then
	echo "# another flagged program is on screen: the banner stays for it"
else
	wait_lacks "$s" "^REGRESSION" 100
fi
ok "R again: reverted, the flag of program $prog clears"

keys "$s" q
wait_exit "$s" 100
ok "q exits with 0"
finish
