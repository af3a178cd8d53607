#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The profiler's options from the outside, no root needed: --list-events
# (forced PMUs, the line format), event names refused as bad usage (one
# line naming --events, status 2), -p values.
. "${top_srcdir:-.}/tests/lib/testlib.sh"

# expect_usage WHAT ARGS...: status 2 and one stderr line naming WHAT.
expect_usage() {
	local what=$1 err rc

	shift
	err=$("$EBPFTOP" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 2 ]; then
		fail "ebpftop $*: status $rc, want 2"
	elif [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || ! printf '%s' "$err" | grep -q -- "$what"; then
		fail "ebpftop $*: message \"$err\" is not one line naming $what"
	else
		ok "ebpftop $*: $err"
	fi
}

# --list-events under each forced PMU: every line is an event or a reason.
for pmu in skl icl spr amd64_fam19h_zen4 amd64_fam19h_zen3; do
	out=$(LIBPFM_FORCE_PMU=$pmu "$EBPFTOP" --list-events) || fail "LIBPFM_FORCE_PMU=$pmu --list-events failed"
	bad=$(printf '%s\n' "$out" | grep -Ev '^(default|topdown|cache|tlb|sw) ([^ ]+ type=[0-9]+ config=0x[0-9a-f]+( config1=0x[0-9a-f]+)?( config2=0x[0-9a-f]+)?|unavailable: .+)$')
	[ -z "$bad" ] || fail "$pmu: lines not in the format: $bad"
	for p in default topdown cache tlb sw; do
		printf '%s\n' "$out" | grep -q "^$p " || fail "$pmu: preset $p is missing"
	done
done
ok "--list-events prints one event (or reason) per line for skl, icl, spr, zen4, zen3"

out=$(LIBPFM_FORCE_PMU=skl "$EBPFTOP" --list-events)
printf '%s\n' "$out" | grep -qx 'topdown uops_issued type=4 config=0x10e' || fail "skl: UOPS_ISSUED.ANY is not 0x10e"
printf '%s\n' "$out" | grep -qx 'topdown recovery_cycles type=4 config=0x10d' || fail "skl: INT_MISC.RECOVERY_CYCLES is not 0x10d"
out=$(LIBPFM_FORCE_PMU=icl "$EBPFTOP" --list-events)
printf '%s\n' "$out" | grep -qx 'topdown backend_slots type=4 config=0x2a4' || fail "icl: TOPDOWN.BACKEND_BOUND_SLOTS is not 0x2a4"
printf '%s\n' "$out" | grep -q 'config=0x200$' && fail "icl: something encodes as 0x200"
out=$(LIBPFM_FORCE_PMU=amd64_fam19h_zen3 "$EBPFTOP" --list-events)
printf '%s\n' "$out" | grep -qx 'topdown unavailable: no Top-Down formula for amd64_fam19h_zen3' || fail "zen3: no reason line for topdown"
printf '%s\n' "$out" | grep -qx 'sw cpu-clock type=1 config=0x0' || fail "zen3: sw preset is not cpu-clock"
ok "--list-events: known encodings, and the reason where there is no formula"

expect_usage --events -e bogus_event_name
expect_usage --events -e cycles,,instructions
expect_usage --events -e default,topdown,cache,tlb,sw,a,b,c,d
LIBPFM_FORCE_PMU=amd64_fam19h_zen3 expect_usage "no Top-Down formula" -e topdown
LIBPFM_FORCE_PMU=icl expect_usage "fixed-counter pseudo event" -e TOPDOWN:BR_MISPREDICT_SLOTS
expect_usage --profile -p 0
expect_usage --profile -p abc
expect_usage --list-events --list-events=yes
finish
