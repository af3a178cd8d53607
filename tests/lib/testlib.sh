# SPDX-License-Identifier: GPL-2.0-only
# Shared by the shell tests (source it; bash). The C tests have the same
# rules in tests/lib/testutil.c:
#  - a test that cannot run here exits 77 (skip), but under
#    EBPFTOP_TEST_STRICT=1 every would-be skip is a failure (exit 99);
#  - integration tests hold one lock while they run, so that tests that
#    turn BPF stats on and off never overlap (not even across build trees).

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
EBPFTOP=${EBPFTOP:-$top_builddir/ebpftop}
test_name=$(basename "$0" .sh)
tl_failures=0

# skip REASON...: exit 77, or 99 when EBPFTOP_TEST_STRICT=1.
skip() {
	if [ "${EBPFTOP_TEST_STRICT:-}" = 1 ]; then
		echo "FAIL (EBPFTOP_TEST_STRICT=1 turns this skip into a failure): $*" >&2
		exit 99
	fi
	echo "SKIP: $*" >&2
	exit 77
}

# die REASON...: the test itself cannot work (exit 99).
die() {
	echo "ERROR: $*" >&2
	exit 99
}

# fail MESSAGE...: record a failure and go on; finish reports it.
fail() {
	echo "FAIL: $*" >&2
	tl_failures=$((tl_failures + 1))
}

ok() {
	echo "ok: $*"
}

# fail_fast: from here on the first failure ends the test, naming the
# step it was at ($step).
fail_fast() {
	step=
	fail() {
		echo "FAIL: ${step:+$step: }$*" >&2
		exit 1
	}
}

# finish: exit 1 if anything failed, else 0.
finish() {
	if [ "$tl_failures" -ne 0 ]; then
		echo "$test_name: $tl_failures check(s) failed" >&2
		exit 1
	fi
	echo "$test_name: all checks passed"
	exit 0
}

# have_bpf: root, and the test loader can load its programs here.
have_bpf() {
	[ -n "${tl_have_bpf:-}" ] && return 0
	[ "$(id -u)" = 0 ] || return 1
	[ -r /proc/sys/kernel/bpf_stats_enabled ] || return 1
	"$top_builddir/tests/testload" </dev/null >/dev/null 2>&1 || return 1
	tl_have_bpf=1
}

# lock_integration: wait (up to 5 minutes) for the integration test lock.
lock_integration() {
	local lock=${EBPFTOP_TEST_LOCK:-/tmp/ebpftop-integration-tests.lock}

	exec 9>>"$lock" || die "cannot open the test lock $lock"
	if ! flock -n 9; then
		echo "# waiting for $lock (another integration test runs)"
		flock -w 300 9 || die "another integration test has held $lock for 5 minutes"
	fi
}

# wait_gone PID [TENTHS]: until process PID is gone (default 5 s); false
# if it still runs.
wait_gone() {
	for _ in $(seq "${2:-50}"); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	! kill -0 "$1" 2>/dev/null
}

# expect_exit CODE NAME-ERE ARGS...: ebpftop ARGS (run under the command
# in the array $wrap, if set) exits CODE with one line on stderr that
# starts with "ebpftop: " and matches NAME-ERE (the option, or the cause),
# and nothing on stdout. Uses $tmp.
expect_exit() {
	local want=$1 name=$2 code lines

	shift 2
	run_timeout 20 ${wrap[@]+"${wrap[@]}"} "$EBPFTOP" "$@" \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	code=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$code" != "$want" ]; then
		fail "ebpftop $*: exit $code, want $want ($(head -c 300 "$tmp/err"))"
	elif [ "$lines" != 1 ]; then
		fail "ebpftop $*: $lines lines on stderr, want 1: $(head -c 300 "$tmp/err")"
	elif ! grep -qE -- "$name" "$tmp/err"; then
		fail "ebpftop $*: message does not name $name: $(cat "$tmp/err")"
	elif ! grep -q '^ebpftop: ' "$tmp/err"; then
		fail "ebpftop $*: message does not start with 'ebpftop: ': $(cat "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		fail "ebpftop $*: wrote to stdout"
	else
		ok "ebpftop $* -> $want: $(cat "$tmp/err")"
	fi
}

# run_timeout SECS CMD...: like timeout(1), but a hang is reported as 124.
run_timeout() {
	local t=$1

	shift
	timeout -k 2 "$t" "$@"
}

[ -x "$EBPFTOP" ] || die "$EBPFTOP is missing: build first (make check builds it)"
