# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the exporter's shell tests (source after testlib.sh; bash).

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

# tl_start NAME DIR: start the test loader NAME (its programs are held by
# it); sets tl_<NAME>_pid and the ids tl_<NAME>_xdp, _socket, _long.
tl_start() {
	local name=$1 dir=$2 line fdi fdo

	mkfifo "$dir/$name.in" "$dir/$name.out" || return 1
	"$top_builddir/tests/testload" <"$dir/$name.in" >"$dir/$name.out" \
		2>"$dir/$name.err" &
	printf -v "tl_${name}_pid" %s "$!"
	exec {fdi}>"$dir/$name.in"
	exec {fdo}<"$dir/$name.out"
	printf -v "tl_${name}_in" %s "$fdi"
	printf -v "tl_${name}_out" %s "$fdo"
	read -r -t 20 line <&"$fdo" || return 1
	for p in xdp socket long; do
		printf -v "tl_${name}_$p" %s \
			"$(grep -o "\"$p\":[0-9]*" <<<"$line" | cut -d: -f2)"
	done
	[ -n "$(eval echo "\$tl_${name}_xdp")" ]
}

# tl_cmd NAME COMMAND...: send a command, print the answer line.
tl_cmd() {
	local name=$1 fdi fdo ans

	shift
	fdi=$(eval echo "\$tl_${name}_in")
	fdo=$(eval echo "\$tl_${name}_out")
	echo "$*" >&"$fdi" || return 1
	read -r -t 30 ans <&"$fdo" || return 1
	echo "$ans"
}

# tl_stop NAME: EOF on its stdin unloads its programs; wait (bounded).
tl_stop() {
	local name=$1 pid fdi fdo

	pid=$(eval echo "\$tl_${name}_pid")
	fdi=$(eval echo "\$tl_${name}_in")
	fdo=$(eval echo "\$tl_${name}_out")
	[ -n "$pid" ] || return 0
	[ -n "$fdi" ] && exec {fdi}>&-
	[ -n "$fdo" ] && exec {fdo}<&-
	for _ in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	printf -v "tl_${name}_pid" %s ""
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
	for _ in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
