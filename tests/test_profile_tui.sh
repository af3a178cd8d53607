#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The key p in the TUI, driven in tmux, on the XDP program of our own
# tests/testload. Where the kernel refuses fentry/fexit (the project's
# hosts), p says why in the profile pane, p again closes the message, the
# TUI runs on, q exits 0 and nothing of the profiler is left. Where fentry
# works (the VM tier's guest runs this test too: tests/test_profile_vm.sh),
# p profiles the selected program live: the pane shows the test runs made
# while attached and the event; p again stops with nothing left; p once
# more profiles again, and q detaches it too. tests/test_profile checks the
# profiler itself.
#
# EBPFTOP_VM_GUEST=1 makes the refusal a failure. Exit: 0 pass, 1 fail,
# 77 skip (99 instead when EBPFTOP_TEST_STRICT=1).
set -u
# shellcheck source=tests/lib/testlib.sh
. "${top_srcdir:-.}/tests/lib/testlib.sh"
# shellcheck source=tests/lib/testload.sh
. "$top_srcdir/tests/lib/testload.sh"
# shellcheck source=tests/lib/tmux.sh
. "$top_srcdir/tests/lib/tmux.sh"

STATE=$top_builddir/tests/lib/profiler_state
[ -x "$STATE" ] || die "$STATE is missing: build first (make check builds it)"

tl_test profile-tui t
tmux_init profile
test_cleanup() {
	tmux_cleanup
}
xdp=$tl_t_xdp

# nothing_left: no tracing link on the program, no profiler program loaded
# for it (they go after an RCU grace period: poll this).
nothing_left() {
	[ "$("$STATE" "$xdp")" = "links 0 progs 0" ]
}

# Does this kernel let fentry/fexit attach at all?
err=$(run_timeout 60 "$EBPFTOP" -b -p "$xdp" -e cpu-clock -n 1 2>&1 >/dev/null)
rc=$?
if [ "$rc" = 1 ] && grep -q "lockdown or an LSM policy" <<<"$err"; then
	works=false
	if [ "${EBPFTOP_VM_GUEST:-}" = 1 ]; then
		fail "the VM guest's kernel refused fentry/fexit"
		finish
	fi
elif [ "$rc" = 0 ]; then
	works=true
else
	die "ebpftop -b -p $xdp -e cpu-clock -n 1 exited $rc: $err"
fi

# Sorted by id, filtered on testload's pid: its XDP program is first,
# unless someone else's program holds the pid's digits: select it for sure.
s=prof
start "$s" 160 40 "$(tui_cmd "$s" screen -s id -f "$tl_t_pid" -e cpu-clock -d 0.5)"
wait_has "$s" "xdp_test_pass" 300
details_of "$s" "$xdp"
keys "$s" Enter
wait_lacks "$s" "^ program [0-9]+ "
keys "$s" p
if ! $works; then
	wait_has "$s" "lockdown or an LSM policy" 300
	keys "$s" p
	wait_has "$s" "pProfile"
	! grep -qF "profile (p closes)" <<<"$last_screen" ||
		tm_fail "p did not close the message"
	keys "$s" q
	wait_exit "$s" 100
	poll 30 nothing_left || fail "programs left after the TUI's refused p: $("$STATE" "$xdp")"
	ok "p on a refusing kernel shows why in the pane, and the TUI runs on"
	finish
fi

wait_has "$s" "profile of program $xdp xdp_test_pass: 0 runs" 600
[ "$("$STATE" "$xdp" | cut -d' ' -f2)" = 2 ] ||
	tm_fail "the TUI's profile is not attached (want fentry + fexit): $("$STATE" "$xdp")"
ans=$(tl_cmd t run xdp 100)
[[ $ans == ok* ]] || die "testload does not answer: $ans"
wait_has "$s" "profile of program $xdp xdp_test_pass: 100 runs" 200
grep -q cpu-clock <<<"$last_screen" || tm_fail "the pane lacks the event"
[ -n "${EBPFTOP_TEST_SHOW:-}" ] && printf '# the screen:\n%s\n' "$last_screen"
ok "p profiles the selected program live: 100 runs, cpu-clock"
keys "$s" p
wait_has "$s" "profiling stopped" 100
poll 50 nothing_left || tm_fail "p again left the profiler loaded: $("$STATE" "$xdp")"
ok "p again stops, nothing left"
# Again, then q: exit detaches it too.
keys "$s" p
wait_has "$s" "profile of program $xdp xdp_test_pass: 0 runs" 600
keys "$s" q
wait_exit "$s" 100
poll 50 nothing_left || fail "q left the profiler loaded: $("$STATE" "$xdp")"
ok "a second p profiles again, q exits 0 and leaves nothing attached"
finish
