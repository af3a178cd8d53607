# SPDX-License-Identifier: GPL-2.0-only
# What bench_refresh.sh and large.sh share (source it; bash): building the
# program loader and the rusage helper, and stopping the loader.
#
# Before sourcing: die MESSAGE, $tmp (a directory of the script's), $here
# (this directory), $cc, and helper= (the loader's pid once started).

# lp_build: $tmp/loadprogs and $tmp/rusage.
lp_build() {
	# shellcheck disable=SC2046
	"$cc" -O2 -Wall -o "$tmp/loadprogs" "$here/loadprogs.c" \
		$(pkg-config --cflags --libs libbpf) || die "cannot build loadprogs.c"
	"$cc" -O2 -Wall -o "$tmp/rusage" "$here/rusage.c" -lutil ||
		die "cannot build rusage.c"
}

# lp_stop: SIGTERM the loader (never SIGKILL: it lets the programs go in
# batches) and wait until it has.
lp_stop() {
	if [ -n "$helper" ]; then
		kill "$helper" 2>/dev/null || true
		wait "$helper" 2>/dev/null || true
		helper=
	fi
}

# lp_traps CLEANUP: run CLEANUP on exit, and exit on INT, TERM and HUP.
lp_traps() {
	# shellcheck disable=SC2064
	trap "$1" EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
}
