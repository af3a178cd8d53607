# SPDX-License-Identifier: GPL-2.0-only
# Runs in the VM guest (tests/test_profile_vm.sh): the profiler checks
# against a kernel that allows fentry/fexit, where a skip is a failure.
cd /b || exit 99
export top_builddir=/b EBPFTOP_TEST_STRICT=1 EBPFTOP_VM_GUEST=1
[ -f /b/show ] && export EBPFTOP_TEST_SHOW=1
./tests/test_profile
