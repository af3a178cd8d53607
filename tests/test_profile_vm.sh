#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# VM tier of the profiler: boot Debian's cloud kernel under QEMU TCG (the
# project's hosts refuse fentry/fexit; that kernel allows them) with an
# initramfs of busybox, ebpftop, tests/testload, tests/test_profile and
# tests/test_profile_tui.sh (with bash and tmux), and run both there
# (tests/vm/guest_profile.sh); and tests/test_prog_stats, whose counters
# iterator that kernel (6.1) loads with probe reads only. Skips (77)
# without qemu, a static busybox or the kernel package; fails instead under
# EBPFTOP_TEST_STRICT=1. The kernel is downloaded once into
# $top_builddir/tests/vm/cache.
. "${top_srcdir:-.}/tests/lib/testlib.sh"
. "$top_srcdir/tests/vm/vmlib.sh"

vm_tools || skip "$VM_WHY"
vm_kernel || skip "$VM_WHY"
for f in ebpftop tests/testload tests/test_profile tests/lib/profiler_state \
	tests/test_prog_stats; do
	[ -x "$top_builddir/$f" ] || die "$top_builddir/$f is missing: build first (make check builds it)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ebpftop-vm.XXXXXX") || die "no temporary directory"
trap 'rm -rf "$work"' EXIT
log=$top_builddir/tests/test_profile_vm.console
stage=$work/root
vm_stage "$stage" "$top_srcdir/tests/vm/guest_profile.sh" || die "cannot build the initramfs"
vm_add "$stage" "$top_builddir/ebpftop" /b/ebpftop &&
	vm_add "$stage" "$top_builddir/tests/testload" /b/tests/testload &&
	vm_add "$stage" "$top_builddir/tests/test_profile" /b/tests/test_profile &&
	vm_add "$stage" "$top_builddir/tests/lib/profiler_state" /b/tests/lib/profiler_state &&
	vm_add "$stage" "$top_builddir/tests/test_prog_stats" /b/tests/test_prog_stats ||
	die "cannot copy the binaries into the initramfs"
# The TUI check is a bash script driving ebpftop in tmux (setup.sh installs
# it) through tests/lib; busybox has no flock for the test lock.
for f in tests/test_profile_tui.sh tests/lib/testlib.sh tests/lib/testload.sh \
	tests/lib/tmux.sh; do
	cp "$top_srcdir/$f" "$stage/b/$f" || die "cannot copy $f into the initramfs"
done
vm_add "$stage" "$(command -v bash)" /usr/bin/bash &&
	vm_add "$stage" "$(command -v flock)" /usr/bin/flock ||
	die "cannot copy bash and flock into the initramfs"
if command -v tmux >/dev/null 2>&1; then
	vm_add "$stage" "$(command -v tmux)" /usr/bin/tmux &&
		vm_add_terminfo "$stage" screen tmux &&
		vm_add_locale "$stage" ||
		die "cannot copy tmux into the initramfs"
fi

# EBPFTOP_TEST_SHOW=1: print the TUI's screen with the profile pane.
[ -n "${EBPFTOP_TEST_SHOW:-}" ] && touch "$stage/b/show"
echo "# booting $(basename "$VM_KERNEL") under QEMU TCG (console in $log)"
start=$(date +%s)
vm_boot "$stage" 600 "$log"
rc=$?
secs=$(($(date +%s) - start))
# The guest's own lines (the console also carries firmware noise).
if [ -n "${EBPFTOP_TEST_SHOW:-}" ]; then
	tr -d '\r' <"$log" | sed -n '/EBPFTOP-VM: booted/,/^EBPFTOP-VM-RESULT/p' |
		sed 's/.*\(EBPFTOP-VM: booted\)/\1/; s/^/guest: /'
else
	tr -d '\r' <"$log" | sed 's/.*\(EBPFTOP-VM: booted\)/\1/' |
		grep -E '^(EBPFTOP-VM|ok:|not ok:|FAIL|SKIP|ERROR|#|\[ |test_profile|ebpftop:)' |
		sed 's/^/guest: /'
fi
echo "# the VM ran ${secs}s"
case $rc in
0) ok "profiler checks passed in the VM guest" ;;
124) fail "the VM did not finish within 600 s" ;;
125) fail "the VM gave no result (did it boot? see $log)" ;;
*) fail "the profiler checks failed in the VM guest (status $rc)" ;;
esac
finish
