# SPDX-License-Identifier: GPL-2.0-only
# Runs in the VM guest (tests/test_profile_vm.sh): the profiler checks
# against a kernel that allows fentry/fexit, where a skip is a failure:
# the profiler itself, then the key p in the TUI; then the counters
# iterator on a kernel older than the project's hosts.
cd /b || exit 99
export top_builddir=/b top_srcdir=/b EBPFTOP_TEST_STRICT=1 EBPFTOP_VM_GUEST=1
[ -f /b/show ] && export EBPFTOP_TEST_SHOW=1
# The console says "linux"; the initramfs has terminfo for screen and tmux.
export TERM=screen
./tests/test_profile
rc=$?
/usr/bin/bash tests/test_profile_tui.sh || [ "$rc" != 0 ] || rc=1
# The counters iterator as a kernel before 6.15 loads it (probe reads),
# exact against the kernel's info, over 300 programs (the CPU is emulated).
EBPFTOP_TEST_PROGS=300 ./tests/test_prog_stats || [ "$rc" != 0 ] || rc=1
exit "$rc"
