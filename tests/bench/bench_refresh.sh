#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What one ebpftop refresh costs with many programs loaded, beside bpftool
# and beside the floor: one bare read of an iterator that only counts them.
#
#   sudo tests/bench/bench_refresh.sh [path/to/ebpftop]
#
# For each N (1000, then 10000) a helper loads N two-instruction socket
# filters, named with a prefix of this run's own, and holds them. ebpftop
# then runs for 1 and for 21 refreshes (-d 0.1); the difference of the two
# CPU times over 20 is the cost of one steady-state refresh (start-up and
# the first refresh cancel out): in batch mode with a filter that matches
# nothing (collect: collection and analysis, no output), with text and JSON
# output, and as the TUI on a 200x50 pseudo-terminal. Those 2 seconds hold
# no owner walk (ebpftop walks every open file for owners when programs
# appear and at most every 3 s): "owners" is the CPU of one walk as
# ebpftop makes it (the iterator's read and the sort), timed by iter_floor
# on its own, walks 100 ms apart, median of 21. "first" is the CPU
# of a whole -n 1 run, start-up included; peak RSS is the largest of all
# runs. The floor is tests/bench/iter_floor (built from the same build
# tree as ebpftop): bpf_iter_create, read and close of an iterator that only
# counts programs, median of 31, with run-time stats off and on (ebpftop
# reads with them on, and then the kernel times each run of the iterator
# program too); "iter" is one read of ebpftop's own counters iterator, the
# kernel's part of a refresh, so collect minus iter is user space's part;
# "x" is collect over the floor with stats on. Those reads come back to
# back, with the kernel's structures in the caches; "cold on" and "cold
# iter" are the same two reads made 100 ms apart, as ebpftop's refreshes
# at -d 0.1 are, which find them out of the caches and cost more: the
# kernel's part of a steady refresh. bpftool prog show is
# timed over the same programs. This prints figures; it does not pass or fail.
#
# Environment: BENCH_COUNTS (default "1000 10000"; counts above 10,000 need
# BENCH_LARGE=1, e.g. BENCH_LARGE=1 BENCH_COUNTS="1000 10000 100000": about
# 450 MiB of kernel memory and a minute more; the helper lets the programs
# go in batches, as freeing 100,000 at once has stalled 2-CPU machines, so
# never SIGKILL it), BENCH_REPS (runs per figure, median kept, default 3),
# BPFTOOL_REPS (default 5), ITER_FLOOR (the floor helper to use, for an
# ebpftop built without it), CC.
set -euo pipefail
shopt -s inherit_errexit

ebpftop=${1:-./build/ebpftop}
counts=${BENCH_COUNTS:-1000 10000}
reps=${BENCH_REPS:-3}
bt_reps=${BPFTOOL_REPS:-5}
cc=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "bench_refresh: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "run as root (loading programs needs CAP_BPF)"
[ -x "$ebpftop" ] || die "no ebpftop binary at '$ebpftop': build first or pass its path"
ebpftop=$(cd "$(dirname "$ebpftop")" && pwd)/$(basename "$ebpftop")
command -v "$cc" >/dev/null || die "no C compiler: apt-get install gcc"
pkg-config --exists libbpf || die "libbpf not found: apt-get install libbpf-dev pkg-config"
bpftool=$(command -v bpftool || true)
[ -n "$bpftool" ] || [ ! -x /usr/sbin/bpftool ] || bpftool=/usr/sbin/bpftool

tmp=$(mktemp -d /tmp/ebpftop-bench.XXXXXX)
helper=

# shellcheck source=tests/bench/loadprogs.sh
. "$here/loadprogs.sh"

cleanup() {
	lp_stop
	rm -rf "$tmp"
}
lp_traps cleanup
lp_build
build=$(dirname "$ebpftop")
floor=${ITER_FLOOR:-$build/tests/bench/iter_floor}
if [ -z "${ITER_FLOOR:-}" ] && [ -f "$build/Makefile" ]; then
	make -C "$build" -s tests/bench/iter_floor >&2 || die "cannot build $floor"
fi
[ -x "$floor" ] || die "no $floor: build it in ebpftop's build tree (make check builds it)"
for n in $counts; do
	[ "$n" -le 10000 ] || [ "${BENCH_LARGE:-}" = 1 ] ||
		die "$n programs: counts above 10000 need BENCH_LARGE=1 (freeing that many programs can stall the kernel for minutes)"
done

# Start the helper with N programs and wait until they are all loaded.
load() {
	local n=$1

	: >"$tmp/ready"
	"$tmp/loadprogs" "$n" "$prefix" >"$tmp/ready" &
	helper=$!
	for _ in $(seq 1500); do
		grep -q '^ready' "$tmp/ready" && return 0
		kill -0 "$helper" 2>/dev/null || break
		sleep 0.2
	done
	die "the helper did not load $n programs (see above)"
}

unload() {
	lp_stop
	# The kernel frees programs a moment after their last fd closes.
	for _ in $(seq 300); do
		[ "$("$ebpftop" -b -n 1 -f "$prefix" | grep -c " $prefix" || true)" = 0 ] && return 0
		sleep 0.2
	done
	die "the helper's programs are still loaded a minute after it exited"
}

# "cpu_us wall_us maxrss_kib status" of one run, stdout discarded.
measure() {
	local out status

	out=$("$tmp/rusage" "$@")
	status=${out##* }
	[ "$status" = 0 ] || die "'$*' exited with status $status"
	echo "$out"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# "ms cpu/refresh  ms first  peak KiB" (medians of $reps; RSS the largest).
# bench_ebpftop [--tui] EBPFTOP-ARGS...
bench_ebpftop() {
	local a b run=()

	[ "$1" = --tui ] && { run=(--pty 200x50); shift; }
	: >"$tmp/per"
	: >"$tmp/rss"
	: >"$tmp/first"
	for _ in $(seq "$reps"); do
		a=$(measure "${run[@]}" "$ebpftop" -n 1 -d 0.1 "$@")
		b=$(measure "${run[@]}" "$ebpftop" -n 21 -d 0.1 "$@")
		echo "$a $b" | awk '{ printf "%.3f\n", ($5 - $1) / 20 / 1000 }' >>"$tmp/per"
		echo "$a" | awk '{ printf "%.1f\n", $1 / 1000 }' >>"$tmp/first"
		echo "$a" | awk '{ print $3 }' >>"$tmp/rss"
		echo "$b" | awk '{ print $3 }' >>"$tmp/rss"
	done
	echo "$(median <"$tmp/per") $(median <"$tmp/first") $(sort -n "$tmp/rss" | tail -n 1)"
}

# ms of CPU of one bare read of an iterator that only counts programs, with
# stats off and on, and of one read of ebpftop's own counters iterator,
# each a median of reads back to back (hot).
# Then, made 100 ms apart (cold): the floor with stats on, our iterator,
# and our iterator as kernels before 6.15 load it (probe reads); last one
# owner walk, made 100 ms apart too.
bench_floor() {
	local hot cold

	hot=$("$floor" 31) || die "iter_floor failed"
	cold=$("$floor" 21 100) || die "iter_floor failed"
	# Eleven fields each: programs, then median and minimum of each read.
	echo "$hot $cold" | awk '{ printf "%.3f %.3f %.3f %.3f %.3f %.3f %.3f\n", $2 / 1000, $4 / 1000, $6 / 1000, $15 / 1000, $17 / 1000, $19 / 1000, $21 / 1000 }'
}

# Mean wall-clock ms of one bpftool invocation.
bench_bpftool() {
	[ -n "$bpftool" ] || { echo "-"; return; }
	: >"$tmp/bt"
	for _ in $(seq "$bt_reps"); do
		measure "$bpftool" "$@" prog show | awk '{ print $2 / 1000 }' >>"$tmp/bt"
	done
	awk '{ s += $1 } END { printf "%.1f\n", s / NR }' "$tmp/bt"
}

others=$(pgrep -x ebpftop | wc -l || true)
# Names of this run's own: other programs named bench_* may be loaded.
prefix=b$(($$ % 100000))_
notes=
rows=
for n in $counts; do
	echo "loading $n programs..." >&2
	# The helper's children hold one fd per program, 10,000 each at most.
	load "$n"
	seen=$("$ebpftop" -b -n 1 -f "$prefix" | grep -c " $prefix" || true)
	[ "$seen" = "$n" ] || die "ebpftop sees $seen of the $n programs"
	# Everything is measured over every loaded program, others' too.
	total=$("$ebpftop" -b -n 1 | sed -n '1s/.*programs \([0-9]*\).*/\1/p')
	[ "$total" -le $((n + n / 20 + 50)) ] ||
		notes="${notes}note: at N=$n, $total programs were loaded in all (others' too): figures are for $total
"
	echo "measuring ebpftop (collect, text, json, tui, owners), the floor and bpftool over $n programs..." >&2
	# A filter that matches nothing: collection and analysis, no output.
	read -r coll _ rss_coll <<<"$(bench_ebpftop -b -f no-such-program-here)"
	read -r text first_text rss_text <<<"$(bench_ebpftop -b)"
	read -r json _ rss_json <<<"$(bench_ebpftop -b -j)"
	read -r tui first_tui rss_tui <<<"$(bench_ebpftop --tui)"
	read -r floff fl ours cfl cours cprobe owners <<<"$(bench_floor)"
	bt=$(bench_bpftool)
	btj=$(bench_bpftool -j)
	rss=$(printf '%s\n' "$rss_coll" "$rss_text" "$rss_json" "$rss_tui" | sort -n | tail -n 1)
	rows="$rows$n $coll $text $json $tui $floff $fl $ours $cfl $cours $cprobe $owners $first_text $first_tui $rss $bt $btj
"
	unload
done

echo
echo "ebpftop refresh benchmark: $(uname -r), $(nproc) cpus, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "binary: $ebpftop ($("$ebpftop" -V))"
echo "cpu/refresh = (cpu(-n 21) - cpu(-n 1)) / 20 at -d 0.1, user+system, median of $reps runs"
echo "collect = batch with a filter that matches nothing; tui = on a 200x50 pty"
echo "floor = one bpf_iter_create+read+close of an iterator that only counts programs (median of 31),"
echo "        with run-time stats off, and on as ebpftop has them; iter = the same for ebpftop's own"
echo "        counters iterator; x = collect / floor (stats on); these three read back to back (hot caches)"
echo "c.on, c.iter = the same reads with stats on, 100 ms apart as ebpftop's refreshes at -d 0.1 come"
echo "        (median of 21): c.iter is the kernel's part of a steady refresh, collect - c.iter user space's;"
echo "        c.probe = c.iter as kernels 5.19 to 6.14 read (bpf_probe_read_kernel, not plain loads)"
echo "us/prog = text per program; json/text and tui/text: the ratios of those columns"
echo "owners = one owner walk over every open file, as ebpftop makes it (when programs appear, else"
echo "        every 3 s), 100 ms apart (median of 21)"
echo "first = cpu of a whole -n 1 run (start-up and first frame)"
echo "bpftool = mean wall time of one 'bpftool [-j] prog show', $bt_reps runs"
[ "$others" = 0 ] || echo "note: $others other ebpftop process(es) were running and share the cpus"
printf '%s' "$notes"
echo
printf '%7s | %-31s | %-22s | %-49s | %7s | %-13s | %7s | %-17s\n' "" " ebpftop ms cpu/refresh" " text us/prog, ratios" " floor ms: hot, cold (100 ms apart)" "owners" "first ms cpu" "max" "bpftool ms/run"
printf '%7s | %7s %7s %7s %7s | %7s %6s %7s | %6s %6s %6s %6s | %6s %6s %7s | %7s | %6s %6s | %7s | %8s %8s\n' \
	N collect text json tui "us/prog" json/t tui/t off on iter "x" "c.on" "c.iter" "c.probe" "ms" text tui "RSS MiB" show "-j show"
printf '%s' "$rows" | while read -r n coll text json tui floff fl ours cfl cours cprobe owners ft fu rss bt btj; do
	printf '%7s | %7s %7s %7s %7s | %7s %6s %7s | %6s %6s %6s %6s | %6s %6s %7s | %7s | %6s %6s | %7s | %8s %8s\n' "$n" \
		"$coll" "$text" "$json" "$tui" \
		"$(awk -v t="$text" -v n="$n" 'BEGIN { printf "%.2f", t * 1000 / n }')" \
		"$(awk -v a="$json" -v t="$text" 'BEGIN { printf "%.2f", (t > 0 ? a / t : 0) }')" \
		"$(awk -v a="$tui" -v t="$text" 'BEGIN { printf "%.2f", (t > 0 ? a / t : 0) }')" \
		"$floff" "$fl" "$ours" \
		"$(awk -v c="$coll" -v f="$fl" 'BEGIN { printf "%.1f", (f > 0 ? c / f : 0) }')" \
		"$cfl" "$cours" "$cprobe" "$owners" "$ft" "$fu" "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" \
		"$bt" "$btj"
done
echo
echo "targets: text <= 1 ms per 1,000 programs (1 us/prog, to 100,000), json <= 1.3x text, tui <= 1.5x text,"
echo "first <= 50 ms at 1,000 and <= 100 ms at 10,000, peak RSS <= 16 MiB at 10,000"
