# SPDX-License-Identifier: GPL-2.0-only
# The test loader from the shell tests (source it after testlib.sh; bash).
# tests/testload holds the test programs while it runs and takes commands
# on its stdin, one answer line each (tests/testload.c lists them); EOF on
# its stdin unloads the programs.
#
#   tl_start NAME DIR   start loader NAME (fifos and stderr in DIR): sets
#                       tl_NAME_pid and the ids tl_NAME_xdp, _socket,
#                       _long, _unnamed
#   tl_cmd NAME CMD...  send a command, print its answer
#   tl_ok NAME CMD...   the command is answered "ok"
#   tl_stop NAME        EOF, then wait for it (bounded)
#
# The fds of the fifos are in $tl_fds: tests/lib/tmux.sh keeps them out of
# its server, so that a loader sees its EOF.
tl_fds=

tl_start() {
	local name=$1 dir=$2 line fdi fdo p

	mkfifo "$dir/$name.in" "$dir/$name.out" || return 1
	"$top_builddir/tests/testload" <"$dir/$name.in" >"$dir/$name.out" \
		2>"$dir/$name.err" &
	printf -v "tl_${name}_pid" %s "$!"
	exec {fdi}>"$dir/$name.in"
	exec {fdo}<"$dir/$name.out"
	printf -v "tl_${name}_in" %s "$fdi"
	printf -v "tl_${name}_out" %s "$fdo"
	tl_fds="$tl_fds $fdi $fdo"
	read -r -t 20 line <&"$fdo" || return 1
	for p in xdp socket long unnamed; do
		printf -v "tl_${name}_$p" %s \
			"$(grep -o "\"$p\":[0-9]*" <<<"$line" | cut -d: -f2)"
		[[ $(eval echo "\$tl_${name}_$p") =~ ^[1-9][0-9]*$ ]] || return 1
	done
}

tl_cmd() {
	local name=$1 fdi fdo ans

	shift
	fdi=$(eval echo "\$tl_${name}_in")
	fdo=$(eval echo "\$tl_${name}_out")
	echo "$*" >&"$fdi" || return 1
	read -r -t 30 ans <&"$fdo" || return 1
	echo "$ans"
}

tl_ok() {
	[ "$(tl_cmd "$@")" = ok ]
}

tl_stop() {
	local name=$1 pid fdi fdo

	pid=$(eval echo "\${tl_${name}_pid:-}")
	fdi=$(eval echo "\${tl_${name}_in:-}")
	fdo=$(eval echo "\${tl_${name}_out:-}")
	[ -n "$pid" ] || return 0
	[ -n "$fdi" ] && exec {fdi}>&-
	[ -n "$fdo" ] && exec {fdo}<&-
	wait_gone "$pid" || kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	printf -v "tl_${name}_pid" %s ""
}

# tl_test NAME LOADER: the set-up of a test on testload's programs: root
# and BPF (else skip), the test lock, $tmp (/tmp/ebpftop-NAME.*), and
# loader LOADER running. At exit the test's own test_cleanup runs (if it
# defines one), then the loader stops and $tmp goes; INT, TERM and HUP
# exit 1 through the same path.
tl_test() {
	have_bpf || skip "needs root and BPF (the test programs do not load here)"
	lock_integration
	tmp=$(mktemp -d "/tmp/ebpftop-$1.XXXXXX") || die "mktemp failed"
	tl_test_loader=$2
	trap tl_test_end EXIT
	trap 'exit 1' INT TERM HUP
	tl_start "$2" "$tmp" ||
		die "the test loader did not start: $(cat "$tmp/$2.err")"
}

tl_test_end() {
	if declare -F test_cleanup >/dev/null; then
		test_cleanup
	fi
	tl_stop "$tl_test_loader"
	rm -rf "$tmp"
}
