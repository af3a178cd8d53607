# SPDX-License-Identifier: GPL-2.0-only
# The tmux driver every TUI test uses (source it; bash): ebpftop runs in a
# detached session of a tmux server of the test's own, keys go in with
# send-keys and the screen comes back with capture-pane. Every wait is a
# bounded poll.
#
# Before sourcing: a function fail MESSAGE (testlib.sh's, or the test's)
# and $tmp, a directory of the test's. After: tmux_init NAME once, and
# tmux_cleanup from the test's EXIT trap.

last_screen=

# tmux_init NAME: a server of our own (-L), UTF-8 so that tmux keeps
# ▼ and … as they are, and not inside the caller's tmux.
tmux_init() {
	command -v tmux >/dev/null 2>&1 || skip "needs tmux (apt-get install tmux)"
	tm_sock=ebpftop-$1-$$
	# Panes start in $tmp: ebpftop by its full path.
	[[ $EBPFTOP == /* ]] || EBPFTOP=$PWD/$EBPFTOP
	export LC_ALL=C.UTF-8
	unset TMUX
}

# tm ARGS...: tmux on our server. It must not inherit the test's other
# fds (9: the test lock, $tl_fds: tests/lib/testload.sh's fifos), or they
# would stay open as long as the server runs.
tm() {
	(
		for fd in ${tl_fds:-}; do
			exec {fd}>&-
		done
		exec tmux -L "$tm_sock" -f /dev/null "$@" 9>&-
	)
}

tmux_cleanup() {
	tm kill-server >/dev/null 2>&1
}

# tm_fail MESSAGE: fail with the last screen shown, and stop the test.
tm_fail() {
	if [ -n "$last_screen" ]; then
		printf -- '--- last screen ---\n%s\n-------------------\n' \
			"$last_screen" >&2
	fi
	fail "$@"
	if declare -F finish >/dev/null; then
		finish
	fi
	exit 1
}

# poll N CMD...: run CMD every 0.1 s until it succeeds, at most N times.
poll() {
	local n=$1

	shift
	for _ in $(seq "$n"); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# screen SESSION: capture the screen into $last_screen.
screen() {
	last_screen=$(tm capture-pane -p -t "$1" 2>/dev/null)
}

# screen_has SESSION ERE: the screen has a line matching ERE.
screen_has() {
	screen "$1" && grep -Eq -- "$2" <<<"$last_screen"
}

screen_lacks() {
	screen "$1" && ! grep -Eq -- "$2" <<<"$last_screen"
}

# wait_has SESSION ERE [TRIES]: until the screen shows ERE (default 5 s).
wait_has() {
	poll "${3:-50}" screen_has "$1" "$2" || tm_fail "screen never showed /$2/"
}

wait_lacks() {
	poll "${3:-50}" screen_lacks "$1" "$2" ||
		tm_fail "screen kept showing /$2/"
}

# keys SESSION KEY...: send-keys (tmux key names: Enter, BSpace, ...).
keys() {
	local s=$1

	shift
	tm send-keys -t "$s" "$@" || tm_fail "send-keys $*"
}

# details_of SESSION ID: select program ID and open its details pane
# (Enter closes it again). The selection starts at the top and moves down
# with j: other ebpftop instances hold the test's programs too, and a
# program of someone else's whose name holds the filter's digits passes it.
details_of() {
	keys "$1" Home Enter
	wait_has "$1" "^ program [0-9]+ "
	for _ in $(seq 10); do
		screen_has "$1" "^ program $2 " && break
		keys "$1" j
		sleep 0.2
	done
	wait_has "$1" "^ program $2 "
}

# start SESSION COLS ROWS SHELL-COMMAND: a session of that size.
start() {
	tm new-session -d -s "$1" -x "$2" -y "$3" -c "$tmp" "$4" ||
		tm_fail "cannot start tmux session $1"
}

session_gone() {
	! tm has-session -t "$1" 2>/dev/null
}

# tui_cmd SESSION TERM ARGS...: the pane's command. ebpftop runs with ARGS
# (words split as the shell does) under TERM; its stderr goes to
# $tmp/err.SESSION and its exit status to $tmp/exit.SESSION; the session
# ends with it.
tui_cmd() {
	local s=$1 term=$2

	shift 2
	printf 'env TERM=%q %q %s 2>%q; echo EXIT=$? > %q' \
		"$term" "$EBPFTOP" "$*" "$tmp/err.$s" "$tmp/exit.$s"
}

# tui_status SESSION [TRIES]: wait for ebpftop in SESSION to exit; prints
# its exit status.
tui_status() {
	local f=$tmp/exit.$1

	poll "${2:-50}" test -s "$f" || tm_fail "ebpftop in session $1 did not exit"
	sed -n 's/^EXIT=//p' "$f"
}

# wait_exit SESSION [TRIES]: ebpftop in SESSION exits, with status 0.
wait_exit() {
	local code

	code=$(tui_status "$@") || exit 1
	[ "$code" = 0 ] || tm_fail "ebpftop in session $1: exit $code: $(cat "$tmp/err.$1" 2>/dev/null)"
}
