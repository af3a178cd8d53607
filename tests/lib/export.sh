# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the exporter's shell tests (source after testlib.sh; bash).

# shellcheck source=tests/lib/testload.sh
. "$top_srcdir/tests/lib/testload.sh"

# export_test NAME TOOL...: skip without root and BPF or without a TOOL;
# then tl_test NAME a: the test lock, $tmp, loader a running, and at exit
# the test's test_cleanup, the loader stopped and $tmp removed.
export_test() {
	local name=$1 c

	shift
	have_bpf || skip "needs root and BPF (the test programs do not load here)"
	for c in "$@"; do
		command -v "$c" >/dev/null ||
			skip "$c is missing (scripts/setup.sh installs it)"
	done
	tl_test "$name" a
}

# free_port: print a TCP port nobody listens on.
free_port() {
	local p

	for _ in $(seq 200); do
		p=$((20000 + RANDOM % 40000))
		if ! ss -Hltn "sport = :$p" 2>/dev/null | grep -q .; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# wait_http URL [TRIES]: until URL answers 200 (0.1 s apart).
wait_http() {
	for _ in $(seq "${2:-100}"); do
		[ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$1")" = 200 ] &&
			return 0
		sleep 0.1
	done
	return 1
}

# metric TEXT-FILE NAME-AND-LABELS: the value of one sample, or nothing.
metric() {
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# stop_pid PID: TERM, then KILL after 5 s; wait for it.
stop_pid() {
	[ -n "$1" ] || return 0
	kill "$1" 2>/dev/null
	wait_gone "$1" || kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
