#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ebpftop --listen scraped by a real Prometheus server (Debian's package,
# started here on loopback with a temporary config and storage, scraping
# every second): its HTTP API returns the test program's runs_total as the
# kernel counts it, rate() over it matches the rate the program is driven
# at within 15 %, the metadata it learnt is OpenMetrics' (an info family),
# and a program unloaded mid-test goes stale.
set -u
. "${top_srcdir:-.}/tests/lib/testlib.sh"
. "$top_srcdir/tests/lib/export.sh"

export_test prom curl prometheus ss
ebpftop_pid= prom_pid=
test_cleanup() {
	stop_pid "$prom_pid"
	stop_pid "$ebpftop_pid"
	tl_stop b
}
tl_start b "$tmp" || die "the second test loader did not start: $(cat "$tmp/b.err")"
rate=200
[ "$(tl_cmd a rate xdp $rate)" = ok ] || die "cannot drive the xdp program"
[ "$(tl_cmd b rate xdp 50)" = ok ] || die "cannot drive the second xdp program"

port=$(free_port) || die "no free port"
"$EBPFTOP" -b -q --listen "127.0.0.1:$port" -d 0.5 >/dev/null 2>"$tmp/ebpftop.err" &
ebpftop_pid=$!
wait_http "http://127.0.0.1:$port/metrics" || die "ebpftop does not serve: $(cat "$tmp/ebpftop.err")"

pport=$(free_port) || die "no free port"
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: ebpftop
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn \
	>"$tmp/prom.log" 2>&1 &
prom_pid=$!
api=http://127.0.0.1:$pport/api/v1
wait_http "http://127.0.0.1:$pport/-/ready" 200 ||
	die "Prometheus did not start: $(tail -5 "$tmp/prom.log")"

# query EXPR: the instant value of the first result ("" if none).
query() {
	curl -s -m 5 --data-urlencode "query=$1" "$api/query" >"$tmp/q.json" || return 1
	grep -o '"value":\[[0-9.]*,"[^"]*"\]' "$tmp/q.json" | head -1 |
		sed 's/.*,"\([^"]*\)"\]/\1/'
}
# wait_query EXPR TRIES: until EXPR has a value (0.25 s apart).
wait_query() {
	local v

	for _ in $(seq "$2"); do
		v=$(query "$1")
		if [ -n "$v" ]; then
			echo "$v"
			return 0
		fi
		sleep 0.25
	done
	return 1
}

sel="ebpftop_program_runs_total{prog_id=\"$tl_a_xdp\"}"
v=$(wait_query "$sel" 80) || die "Prometheus never got $sel: up=$(query 'up') $(tail -3 "$tmp/prom.log")"
ok "Prometheus returns $sel = $v"
[ "$(query 'up{job="ebpftop"}')" = 1 ] || fail "up{job=\"ebpftop\"} is not 1"

# What Prometheus stores equals what the kernel counted: stop the driving,
# wait for a refresh and a scrape, compare.
[ "$(tl_cmd a rate xdp 0)" = ok ] || die "cannot stop driving"
sleep 0.3
read -r _ cnt _ <<<"$(tl_cmd a info xdp)"
got=
for _ in $(seq 40); do
	got=$(query "$sel")
	[ "$got" = "$cnt" ] && break
	sleep 0.25
done
if [ "$got" = "$cnt" ]; then
	ok "Prometheus's runs_total $got = the kernel's run_cnt"
else
	fail "Prometheus's runs_total $got, the kernel's run_cnt $cnt"
fi

# rate() against the rate the kernel saw over the same 4 seconds. What
# Prometheus holds at time T is the kernel's count at T minus up to a
# refresh (0.5 s) and a scrape interval (1 s): evaluate rate() 0.75 s late.
[ "$(tl_cmd a rate xdp $rate)" = ok ] || die "cannot drive the xdp program"
sleep 0.5
read -r _ c0 _ <<<"$(tl_cmd a info xdp)"
t0=$(date +%s.%N)
sleep 4
read -r _ c1 _ <<<"$(tl_cmd a info xdp)"
t1=$(date +%s.%N)
sleep 1.6	# until Prometheus has scraped past the window
driven=$(awk -v a="$c0" -v b="$c1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.1f", (b - a) / (e - s) }')
at=$(awk -v e="$t1" 'BEGIN { printf "%.3f", e + 0.75 }')
curl -s -m 5 --data-urlencode "query=rate(${sel}[4s])" --data-urlencode "time=$at" \
	"$api/query" >"$tmp/q.json"
prate=$(grep -o '"value":\[[0-9.]*,"[^"]*"\]' "$tmp/q.json" | head -1 | sed 's/.*,"\([^"]*\)"\]/\1/')
if [ -n "$prate" ] && awk -v p="$prate" -v d="$driven" 'BEGIN {
	exit !(d > 0 && p >= 0.85 * d && p <= 1.15 * d) }'; then
	ok "rate() $prate/s against $driven/s driven (nominal $rate/s): within 15 %"
else
	fail "rate() '$prate'/s against $driven/s driven (nominal $rate/s)"
fi

# The metadata Prometheus learnt comes from the OpenMetrics parser.
curl -s -m 5 "$api/metadata?metric=ebpftop_program" >"$tmp/meta.json"
if grep -q '"type":"info"' "$tmp/meta.json"; then
	ok "Prometheus scraped OpenMetrics (ebpftop_program is an info family)"
else
	fail "metadata of ebpftop_program: $(head -c 300 "$tmp/meta.json")"
fi

# Unload the second loader's programs: their series go stale.
selb="ebpftop_program_runs_total{prog_id=\"$tl_b_xdp\"}"
[ -n "$(query "$selb")" ] || fail "the second program was never scraped"
tl_stop b
stale=
for _ in $(seq 40); do
	if [ -z "$(query "$selb")" ]; then
		stale=1
		break
	fi
	sleep 0.25
done
if [ -n "$stale" ] && [ -n "$(query "$sel")" ]; then
	ok "the unloaded program went stale; the other one is still there"
else
	fail "after unloading program $tl_b_xdp: stale=${stale:-no}, $sel=$(query "$sel")"
fi
[ "$(query 'up{job="ebpftop"}')" = 1 ] || fail "a scrape failed: up is not 1"
[ "$(query 'sum(scrape_samples_scraped{job="ebpftop"})')" -gt 0 ] 2>/dev/null ||
	fail "no samples scraped"

stop_pid "$prom_pid"
prom_pid=
rm -rf "$tmp/data"
[ -e "$tmp/data" ] && fail "Prometheus's data could not be removed"
finish
