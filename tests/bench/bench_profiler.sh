#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (figures, not a test): what ebpftop's profiler costs a program
# per run. Boots the VM tier's guest (tests/vm/vmlib.sh: Debian's cloud
# kernel under QEMU TCG, where fentry/fexit work) and runs
# tests/bench/bench_profiler there: testprogs' XDP program alone, with an
# empty fentry/fexit pair, and with the profiler on 1, 3 and 5 events.
# TCG emulates the CPU, so absolute times are not those of real hardware;
# read the ratios.
#
#   top_builddir=BUILD tests/bench/bench_profiler.sh [RUNS [ROUNDS]]
#
# On a machine that allows fentry itself, run BUILD/tests/bench/bench_profiler
# directly instead (with hardware events as arguments, if it has a PMU).
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
. "$top_srcdir/tests/vm/vmlib.sh"

runs=${1:-2000}
rounds=${2:-5}
vm_tools || { echo "bench_profiler: $VM_WHY" >&2; exit 1; }
vm_kernel || { echo "bench_profiler: $VM_WHY" >&2; exit 1; }
helper=$top_builddir/tests/bench/bench_profiler
if [ ! -x "$helper" ]; then
	make -C "$top_builddir" tests/bench/bench_profiler >/dev/null ||
		{ echo "bench_profiler: cannot build $helper" >&2; exit 1; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ebpftop-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
stage=$work/root
vm_stage "$stage" "$top_srcdir/tests/vm/guest_bench.sh" || exit 1
vm_add "$stage" "$helper" /b/tests/bench/bench_profiler || exit 1
echo "$runs $rounds" >"$stage/b/bench.args"
echo "# $(basename "$VM_KERNEL") under QEMU TCG, 2 vCPUs; $runs runs x $rounds rounds"
vm_boot "$stage" 900 "$work/console"
rc=$?
tr -d '\r' <"$work/console" | sed -n '/EBPFTOP-VM: booted/,/^EBPFTOP-VM-RESULT/p' |
	sed 's/.*\(EBPFTOP-VM: booted\)/\1/' | grep -v '^\[ *[0-9.]*\]'
exit $rc
