#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The endpoint under abuse, while ebpftop refreshes every 0.2 s (in batch
# mode, whose JSON Lines date every refresh): 200 concurrent scrapes, 64 KiB headers, a client sending one byte
# a second, a client that never reads, idle connections, POST and unknown
# paths, and thousands of scrapes in a row. ebpftop must keep refreshing,
# answer every scrape completely, cut the slow clients within its
# deadline, and end with as many sockets as it started with and about the
# same memory.
set -u
. "${top_srcdir:-.}/tests/lib/testlib.sh"
. "$top_srcdir/tests/lib/export.sh"

export_test abuse curl ss
bg=()
pid=
test_cleanup() {
	# The abusers and the sleeps that keep their sockets open.
	for p in "${bg[@]}"; do
		pkill -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	stop_pid "$pid"
}
port=$(free_port) || die "no free port"
url=http://127.0.0.1:$port/metrics
om='application/openmetrics-text;version=1.0.0'
# The records list only the test's programs; the endpoint has them all.
# Under AddressSanitizer, freed memory waits in a quarantine that would
# read as growth: keep it small (other builds ignore the variable).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4 \
	"$EBPFTOP" -j -f testload --listen "$port" -d 0.2 >"$tmp/records" 2>"$tmp/ebpftop.err" &
pid=$!
wait_http "$url" || die "ebpftop does not serve $url: $(cat "$tmp/ebpftop.err")"

sockets() { ls -l "/proc/$pid/fd" 2>/dev/null | grep -c 'socket:'; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
# Programs ebpftop holds: its memory follows them (others load and unload
# thousands on a shared machine).
programs() { curl -s -m 10 "$url" | awk '$1 == "ebpftop_programs" { print $2 }'; }

# urls N [URL]: N times "-o /dev/null URL", for one curl to fetch.
urls() {
	for _ in $(seq "$1"); do
		echo "-o /dev/null ${2:-$url}"
	done
}

# How big one answer is decides how many scrapes fit in a short test: the
# machine may hold thousands of other programs.
size=$(curl -s "$url" | wc -c)
n=$((300000000 / (size + 1)))
[ "$n" -gt 2000 ] && n=2000
[ "$n" -lt 50 ] && n=50
echo "# one exposition is $size bytes: $n scrapes in a row"
# Warm up (allocations reach their steady size), then take the baseline.
curl -s $(urls 20) >/dev/null
sleep 0.5
sock0=$(sockets) rss0=$(rss_kb) r0=$(wc -l <"$tmp/records") p0=$(programs)
echo "# baseline: $sock0 sockets, RSS $rss0 kB, $r0 refreshes, $p0 programs"

# ---- the abusers, all at once ------------------------------------------------
# One byte a second: cut by the request deadline.
(
	trap '' PIPE
	start=$SECONDS
	exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
	req=$'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n'
	for ((i = 0; i < ${#req} && SECONDS - start < 30; i++)); do
		printf '%s' "${req:i:1}" >&3 2>/dev/null || break
		sleep 1
	done
	echo $((SECONDS - start)) >"$tmp/slow"
	sleep 30	# keep the fd: its state shows whether the server let go
) &
bg+=($!)
slow_pid=$!
# Never reads: thousands of pipelined requests whose answers fill the socket.
(
	trap '' PIPE
	start=$SECONDS
	exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
	printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n%.0s' $(seq 3000) >&3 2>/dev/null
	while [ $((SECONDS - start)) -lt 30 ]; do
		printf '\r\n' >&3 2>/dev/null || break
		sleep 1
	done
	echo $((SECONDS - start)) >"$tmp/noread"
	sleep 30
) &
bg+=($!)
noread_pid=$!
# Idle connections that never send anything.
(
	for i in $(seq 20); do
		exec {fd}<>"/dev/tcp/127.0.0.1/$port" || break
	done
	sleep 30
) &
bg+=($!)
idle_pid=$!

# 200 concurrent scrapes, every one complete (curl checks Content-Length).
curl -s -m 120 -Z --parallel-max 200 -H "Accept: $om" -w '%{http_code} %{size_download}\n' \
	$(urls 200) >"$tmp/par" 2>"$tmp/par.err"
par_rc=$?
n200=$(grep -c '^200 [1-9]' "$tmp/par")
if [ "$par_rc" = 0 ] && [ "$n200" = 200 ]; then
	ok "200 concurrent scrapes: all 200 OK and complete"
else
	fail "200 concurrent scrapes: curl exit $par_rc, $n200 complete: $(sort "$tmp/par" | uniq -c | head -5)"
fi
# 64 KiB of headers: refused, and nothing else suffers.
big=$(head -c 65536 /dev/zero | tr '\0' a)
codes=$(for _ in $(seq 10); do
	curl -s -o /dev/null -m 10 -w '%{http_code}\n' -H "X-Big: $big" "$url"
done | sort | uniq -c | tr -s ' \n' ' ')
[[ $codes == " 10 431 " ]] && ok "64 KiB headers: 431 (x10)" || fail "64 KiB headers: $codes"
# POST, other methods and unknown paths.
codes=$(for i in $(seq 50); do
	curl -s -o /dev/null -m 5 -w '%{http_code}\n' -X POST -d "x=$i" "$url"
	curl -s -o /dev/null -m 5 -w '%{http_code}\n' "http://127.0.0.1:$port/x$i"
done | sort | uniq -c | tr -s ' \n' ' ')
[[ $codes == " 50 404 50 405 " ]] && ok "POST and unknown paths: 50 x 405, 50 x 404" ||
	fail "POST and unknown paths: $codes"
# Scrapes in a row on kept-alive connections, every body complete.
curl -s -H "Accept: $om" -w '%{stderr}%{http_code}\n' \
	$(for _ in $(seq $n); do echo "$url"; done) >"$tmp/bodies" 2>"$tmp/seq"
seq_rc=$?
codes=$(grep -c '^200$' "$tmp/seq")
eofs=$(grep -c '^# EOF$' "$tmp/bodies")
heads=$(grep -c '^# TYPE ebpftop_bpf_stats_enabled gauge$' "$tmp/bodies")
if [ "$seq_rc" = 0 ] && [ "$codes" = $n ] && [ "$eofs" = $n ] && [ "$heads" = $n ]; then
	ok "$n scrapes in a row: all 200, all complete (# EOF)"
else
	fail "$n scrapes in a row: curl exit $seq_rc, $codes x 200, $eofs x # EOF, $heads starts"
fi

# ---- afterwards ---------------------------------------------------------------
# The slow clients are cut by the 10 s deadline (wait up to 20 s for it).
for _ in $(seq 200); do
	[ -s "$tmp/slow" ] && [ -s "$tmp/noread" ] && break
	sleep 0.1
done
s=$(cat "$tmp/slow" 2>/dev/null)
[ -n "$s" ] && [ "$s" -le 15 ] && ok "the one-byte-a-second client was cut after ${s}s" ||
	fail "the one-byte-a-second client was not cut within 15 s (${s:-still connected})"
s=$(cat "$tmp/noread" 2>/dev/null)
[ -n "$s" ] && [ "$s" -le 15 ] && ok "the client that never reads was cut after ${s}s" ||
	fail "the client that never reads was not cut within 15 s (${s:-still connected})"
# The idle ones are closed by the server although the client keeps them.
left=
for _ in $(seq 50); do
	left=$(ss -Htn state established "( sport = :$port )" | wc -l)
	[ "$left" = 0 ] && break
	sleep 0.2
done
[ "$left" = 0 ] && ok "the server holds no connection of the abusers any more" ||
	fail "$left connections still established on the server side"
sock1=$(sockets) rss1=$(rss_kb) p1=$(programs)
# Refreshes on time: the records' times, from the baseline on.
tail -n +$((r0 + 1)) "$tmp/records" | grep -o '^{"time":[0-9.]*' | cut -d: -f2 >"$tmp/times"
read -r nref span gap < <(awk 'NR == 1 { first = $1 } NR > 1 && $1 - prev > g { g = $1 - prev }
	{ prev = $1 } END { printf "%d %.1f %.2f\n", NR, prev - first, g }' "$tmp/times")
echo "# after: $sock1 sockets, RSS $rss1 kB, $nref refreshes in ${span}s, $p1 programs"
if awk -v n="$nref" -v s="$span" -v g="$gap" 'BEGIN { exit !(s > 5 && n >= 0.5 * s / 0.2 && g < 2) }'; then
	ok "$nref refreshes in ${span}s at -d 0.2, none more than ${gap}s apart"
else
	fail "$nref refreshes in ${span}s at -d 0.2, up to ${gap}s apart"
fi
[ "$sock1" = "$sock0" ] && ok "sockets: $sock0 before, $sock1 after" ||
	fail "sockets: $sock0 before, $sock1 after"
# 16 MiB of slack, and 16 KiB for every program loaded meanwhile.
more=$((p1 > p0 ? p1 - p0 : 0))
if [ "$rss1" -le $((rss0 + 16384 + 16 * more)) ]; then
	ok "RSS: $rss0 kB before, $rss1 kB after ($p0, then $p1 programs)"
else
	fail "RSS grew from $rss0 kB to $rss1 kB ($p0, then $p1 programs)"
fi
# A clean exit: under the sanitizers this is where leaks would be told.
kill -0 "$pid" 2>/dev/null || fail "ebpftop is gone"
kill -TERM "$pid"
wait_gone "$pid" 100
wait "$pid"
rc=$?
pid=
if [ "$rc" = 0 ] && [ ! -s "$tmp/ebpftop.err" ]; then
	ok "ebpftop exits 0 on SIGTERM, nothing on stderr"
else
	fail "ebpftop on SIGTERM: exit $rc: $(head -c 2000 "$tmp/ebpftop.err")"
fi
finish
