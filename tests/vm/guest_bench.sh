# SPDX-License-Identifier: GPL-2.0-only
# Runs in the VM guest (tests/bench/bench_profiler.sh): the benchmark, with
# the arguments the host wrote to /b/bench.args.
cd /b || exit 99
# shellcheck disable=SC2046
./tests/bench/bench_profiler $(cat /b/bench.args)
