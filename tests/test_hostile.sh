#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ebpftop where the environment is hostile or odd:
#  - a program holder names itself (PR_SET_NAME) with escape sequences:
#    batch text output shows them escaped, never raw, and so does the TUI;
#  - TERM=dumb and a terminal too large for curses are refused with one
#    line saying why (exit 1);
#  - the TUI filter takes UTF-8: -f 'xé' shows as typed, typed characters
#    of any script are kept, Backspace removes a whole character.
# Needs root (BPF programs) and tmux.
#
# Exit: 0 pass, 1 fail, 77 skip (99 instead of a skip when
# EBPFTOP_TEST_STRICT=1). Run from the build directory.
set -u

top_srcdir=${top_srcdir:-$(dirname "$0")/..}
# shellcheck source=tests/lib/testlib.sh
. "$top_srcdir/tests/lib/testlib.sh"
# shellcheck source=tests/lib/testload.sh
. "$top_srcdir/tests/lib/testload.sh"
# shellcheck source=tests/lib/tmux.sh
. "$top_srcdir/tests/lib/tmux.sh"

tl_test hostile t
tmux_init hostile
test_cleanup() {
	tmux_cleanup
}

# ---- a holder named "\e[2J\e]0;pwn\a": clear the screen, retitle it ---------
pid=$tl_t_pid
xdp=$tl_t_xdp
# ESC [ 2 J ESC ] 0 ; p w n BEL
ans=$(tl_cmd t comm 1b5b324a1b5d303b70776e07)
[ "$ans" = ok ] || die "testload did not take 'comm': $ans"
[ "$(od -An -tx1 "/proc/$pid/comm" | tr -d ' \n')" = 1b5b324a1b5d303b70776e070a ] ||
	die "the holder's name did not change: $(od -c "/proc/$pid/comm")"

run_timeout 20 "$EBPFTOP" -b -n 1 --no-stats -f "$pid" >"$tmp/text" 2>"$tmp/err"
code=$?
row=$(grep -E "^ *$xdp " "$tmp/text")
if [ "$code" != 0 ]; then
	fail "ebpftop -b: exit $code: $(head -c 300 "$tmp/err")"
elif LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/text"; then
	fail "ebpftop -b wrote control bytes: $(od -c "$tmp/text" | grep -m3 '033\|\\a')"
elif ! grep -qF '\x1b[2J\x1b]0;pwn\x07('"$pid"')' <<<"$row"; then
	fail "the owner is not shown escaped in the row of program $xdp: $row"
else
	ok "-b text: the owner shows as \\x1b[2J\\x1b]0;pwn\\x07($pid), no control byte written"
fi
# JSON carries the name as it is, escaped the JSON way.
run_timeout 20 "$EBPFTOP" -j -n 1 --no-stats -f "$pid" >"$tmp/json" 2>"$tmp/err"
if ! grep -qF '"comm":"\u001b[2J\u001b]0;pwn\u0007"' "$tmp/json"; then
	fail "JSON does not carry the name escaped: $(grep -o '"comm":"[^"]*"' "$tmp/json" | head -n2)"
else
	ok "-j: the comm is JSON-escaped"
fi

# The TUI: '?' for each control byte; the screen is still ours.
s=owner$$
start "$s" 160 20 "$(tui_cmd "$s" screen -d 0.3 --no-stats -f "$pid")"
wait_has "$s" "^ *$xdp +xdp .*\?\[2J\?\]0;pwn\?\($pid\)"
keys "$s" q
wait_exit "$s"
ok "TUI: the owner shows as ?[2J?]0;pwn?($pid)"

# ---- terminals the full-screen view cannot use -------------------------------
# refused SESSION WHY-ERE ENV...: ebpftop exits 1 with one line matching WHY.
refused() {
	local s=$1 why=$2 code

	shift 2
	start "$s" 80 24 "$(tui_cmd "$s" screen -n 1 --no-stats | sed "s|^env TERM=screen|env TERM=screen $*|")"
	code=$(tui_status "$s" 100) || return
	if [ "$code" != 1 ]; then
		fail "ebpftop with $*: exit $code, want 1: $(cat "$tmp/err.$s")"
	elif [ "$(wc -l <"$tmp/err.$s")" != 1 ] || ! grep -qE "^ebpftop: $why" "$tmp/err.$s"; then
		fail "ebpftop with $*: want one line /$why/, got: $(cat "$tmp/err.$s")"
	else
		ok "$* -> 1: $(cat "$tmp/err.$s")"
	fi
}
refused dumb$$ "terminal type 'dumb' cannot move the cursor.* -b " TERM=dumb
refused huge$$ "the terminal is 40000 columns by 40000 lines: .*at most 32767" \
	COLUMNS=40000 LINES=40000
refused wide$$ "the terminal is 32768 columns by 24 lines" COLUMNS=32768 LINES=24

# ---- UTF-8 in the filter ------------------------------------------------------
s=utf8$$
start "$s" 100 20 "$(tui_cmd "$s" screen -d 0.3 --no-stats -f 'xé')"
wait_has "$s" "^sort: [a-z_]+  filter: xé( |$)"
wait_has "$s" "no program matches 'xé'"
keys "$s" / ö 日
wait_has "$s" "^filter .*: xéö日$"
keys "$s" BSpace
wait_has "$s" "^filter .*: xéö$"
keys "$s" BSpace BSpace
wait_has "$s" "^filter .*: x$"
# Each Backspace took one character: the text left is whole (no '?').
keys "$s" BSpace BSpace
wait_has "$s" "^filter \\(Enter keeps, Esc clears\\): ?$"
# The filter still works once non-ASCII has been typed and removed.
keys "$s" é BSpace
keys "$s" "$pid" Enter
wait_has "$s" "^sort: [a-z_]+  filter: $pid( |$)"
wait_has "$s" "^ *$xdp +xdp "
keys "$s" q
wait_exit "$s"
ok "UTF-8 filter: -f 'xé' shown whole, typed ö日 kept, Backspace takes whole characters"

finish
