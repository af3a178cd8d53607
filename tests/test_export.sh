#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The exporter against the real kernel and real clients: ebpftop -b -q
# --listen beside the test programs, fetched with curl (headers, Accept
# negotiation, # EOF, methods and paths), checked by promtool, and its
# runs_total compared with the kernel's run_cnt; --prom-file read in a loop
# while it is rewritten every 0.1 s; --listen in the full-screen view and
# with --demo; the errors (port in use, foreign address, privileged port,
# missing directory).
set -u
. "${top_srcdir:-.}/tests/lib/testlib.sh"
. "$top_srcdir/tests/lib/export.sh"

# shellcheck source=tests/lib/tmux.sh
. "$top_srcdir/tests/lib/tmux.sh"

export_test export curl promtool ss setpriv
tmux_init export
pids=()
test_cleanup() {
	tmux_cleanup
	for p in "${pids[@]}"; do
		stop_pid "$p"
	done
}
port=$(free_port) || die "no free port"
url=http://127.0.0.1:$port
om='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'

"$EBPFTOP" -b -q --listen "$port" -d 0.3 >"$tmp/quiet.out" 2>"$tmp/quiet.err" &
pids+=($!)
ebpftop_pid=$!
wait_http "$url/metrics" || die "ebpftop never served $url/metrics: $(cat "$tmp/quiet.err")"

# ---- headers, negotiation, # EOF, promtool -----------------------------------
curl -sS -D "$tmp/h.text" -o "$tmp/m.text" "$url/metrics"
if grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$tmp/h.text"; then
	ok "no Accept: the Prometheus text format"
else
	fail "no Accept: content type $(grep -i content-type "$tmp/h.text")"
fi
grep -q '^# EOF' "$tmp/m.text" && fail "the text format has a # EOF line"
grep -q '^# UNIT' "$tmp/m.text" && fail "the text format has # UNIT lines"
if promtool check metrics <"$tmp/m.text" >"$tmp/promtool.out" 2>&1; then
	ok "promtool check metrics passes"
else
	fail "promtool check metrics: $(cat "$tmp/promtool.out")"
fi
curl -sS -D "$tmp/h.om" -o "$tmp/m.om" -H "Accept: $om" "$url/metrics"
if grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$tmp/h.om"; then
	ok "Prometheus's Accept: OpenMetrics 1.0.0"
else
	fail "Prometheus's Accept: content type $(grep -i content-type "$tmp/h.om")"
fi
if [ "$(tail -n 1 "$tmp/m.om")" = "# EOF" ] && [ "$(tail -c 1 "$tmp/m.om" | od -An -c | tr -d ' ')" = '\n' ]; then
	ok "OpenMetrics ends with # EOF and a line feed"
else
	fail "OpenMetrics does not end with '# EOF\\n': $(tail -n 2 "$tmp/m.om")"
fi
grep -q '^# TYPE ebpftop_program info$' "$tmp/m.om" || fail "OpenMetrics: no info family ebpftop_program"
grep -q '^# UNIT ebpftop_program_run_time_seconds seconds$' "$tmp/m.om" || fail "OpenMetrics: no # UNIT for run time"
len=$(grep -i '^content-length:' "$tmp/h.om" | tr -dc 0-9)
[ "$len" = "$(stat -c %s "$tmp/m.om")" ] || fail "Content-Length $len, body $(stat -c %s "$tmp/m.om") bytes"
# HEAD: the same headers, no body.
curl -sS -I -H "Accept: $om" "$url/metrics" >"$tmp/h.head"
if grep -q '^HTTP/1.1 200' "$tmp/h.head" && grep -qi '^content-type: application/openmetrics-text' "$tmp/h.head" &&
	grep -qi '^content-length: [1-9]' "$tmp/h.head"; then
	ok "HEAD /metrics: 200 with the GET's headers"
else
	fail "HEAD /metrics: $(cat "$tmp/h.head")"
fi
# The index page links to /metrics.
code=$(curl -s -o "$tmp/index" -w '%{http_code} %{content_type}' "$url/")
if [[ $code == "200 text/html"* ]] && grep -q 'href="/metrics"' "$tmp/index"; then
	ok "/ is a short page linking to /metrics"
else
	fail "/: $code $(head -c 200 "$tmp/index")"
fi
# Methods and paths.
check_code() {
	local want=$1 got

	shift
	got=$(curl -s -o /dev/null -m 5 -w '%{http_code}' "$@")
	if [ "$got" = "$want" ]; then
		ok "curl $* -> $got"
	else
		fail "curl $* -> $got, want $want"
	fi
}
check_code 405 -X POST -d x=1 "$url/metrics"
check_code 405 -X PUT "$url/"
check_code 405 -X DELETE "$url/metrics"
check_code 405 -X OPTIONS "$url/metrics"
check_code 404 "$url/nope"
check_code 404 "$url/metrics/"
check_code 404 "$url/metrics.txt"
check_code 400 -X GET -d body "$url/metrics"
check_code 200 "$url/metrics?x=1"
curl -s -D - -o /dev/null -X POST "$url/metrics" | grep -qi '^allow: GET, HEAD' ||
	fail "405 without 'Allow: GET, HEAD'"
# Nothing beyond the metrics: no server banner.
grep -qi '^server:' "$tmp/h.om" && fail "a Server header: $(grep -i '^server:' "$tmp/h.om")"

# ---- the program's labels and counters against the kernel's -----------------------
grep -q "^ebpftop_program_info{prog_id=\"$tl_a_xdp\",prog_name=\"xdp_test_pass\",prog_type=\"xdp\",tag=\"[0-9a-f]\{16\}\"} 1$" "$tmp/m.om" ||
	fail "no info sample for the xdp program $tl_a_xdp: $(grep "prog_id=\"$tl_a_xdp\"" "$tmp/m.om" | head -3)"
grep -q "^ebpftop_program_info{prog_id=\"$tl_a_long\",prog_name=\"ebpftop_test_program_with_a_long_name\"," "$tmp/m.om" ||
	fail "the long program's full BTF name is not exported"
grep -q "^ebpftop_program_owner_info{prog_id=\"$tl_a_xdp\",comm=\"testload\"} 1$" "$tmp/m.om" ||
	fail "no owner sample for the xdp program"

# scrape_after_refresh: fetch until a refresh newer than the previous one is
# served twice in a row (one more refresh past the last runs).
scrape_after() {
	local want=$1 r

	for _ in $(seq 100); do
		curl -s -o "$tmp/m.now" "$url/metrics"
		r=$(metric "$tmp/m.now" ebpftop_refreshes_total)
		[ -n "$r" ] && [ "$r" -ge "$want" ] && return 0
		sleep 0.1
	done
	return 1
}
for n in 1000 2345 1; do
	ans=$(tl_cmd a run xdp "$n") || die "the test loader does not answer"
	read -r st cnt ns <<<"$ans"
	[ "$st" = ok ] || die "run xdp $n: $ans"
	r=$(metric "$tmp/m.now" ebpftop_refreshes_total 2>/dev/null)
	curl -s -o "$tmp/m.now" "$url/metrics"
	r=$(metric "$tmp/m.now" ebpftop_refreshes_total)
	scrape_after $((r + 2)) || fail "no new refresh within 10 s"
	got=$(metric "$tmp/m.now" "ebpftop_program_runs_total{prog_id=\"$tl_a_xdp\"}")
	want_s=$(printf '%d.%09d' $((ns / 1000000000)) $((ns % 1000000000)))
	got_s=$(metric "$tmp/m.now" "ebpftop_program_run_time_seconds_total{prog_id=\"$tl_a_xdp\"}")
	if [ "$got" = "$cnt" ] && [ "$got_s" = "$want_s" ]; then
		ok "after $n more runs: runs_total $got = run_cnt, run_time_seconds_total $got_s = run_time_ns"
	else
		fail "after $n more runs: runs_total $got (kernel $cnt), run_time $got_s (kernel $want_s)"
	fi
done
[ "$(metric "$tmp/m.now" ebpftop_bpf_stats_enabled)" = 1 ] || fail "ebpftop_bpf_stats_enabled is not 1"
[ -s "$tmp/quiet.out" ] && fail "-q printed on stdout: $(head -c 200 "$tmp/quiet.out")"

# ---- errors: one line, exit 1 or 2, nothing loaded --------------------------------
expect() {
	local want=$1 re=$2 code

	shift 2
	run_timeout 20 "$@" >"$tmp/e.out" 2>"$tmp/e.err" </dev/null
	code=$?
	if [ "$code" = "$want" ] && [ "$(wc -l <"$tmp/e.err")" = 1 ] &&
		grep -qE -- "$re" "$tmp/e.err" && grep -q '^ebpftop: ' "$tmp/e.err"; then
		ok "${*:2} -> $code: $(cat "$tmp/e.err")"
	else
		fail "${*:2}: exit $code (want $want): $(head -c 300 "$tmp/e.err")"
	fi
}
expect 1 'in use' "$EBPFTOP" -b -q --listen "127.0.0.1:$port"
expect 2 'not an address of this machine' "$EBPFTOP" -b -q --listen "192.0.2.1:$port"
expect 2 "--listen" "$EBPFTOP" -b --listen "example.org:$port"
expect 2 "--listen" "$EBPFTOP" -b --listen 70000
expect 1 'CAP_NET_BIND_SERVICE' setpriv --bounding-set=-net_bind_service \
	--inh-caps=-net_bind_service "$EBPFTOP" -b -q --listen 127.0.0.1:81
expect 2 "--prom-file: directory .* does not exist" "$EBPFTOP" -b -q --prom-file "$tmp/none/x.prom"
expect 2 "--quiet" "$EBPFTOP" -q --listen "$port"
stop_pid "$ebpftop_pid"

# ---- --prom-file: never a partial file -------------------------------------------
mkdir "$tmp/tf"
pf=$tmp/tf/ebpftop.prom
"$EBPFTOP" -b -q --prom-file "$pf" -d 0.1 >"$tmp/pf.out" 2>"$tmp/pf.err" &
pids+=($!)
pf_pid=$!
for _ in $(seq 100); do
	[ -s "$pf" ] && break
	sleep 0.1
done
[ -s "$pf" ] || die "--prom-file never appeared: $(cat "$tmp/pf.err")"
families=$(grep -c '^# TYPE' "$pf")
reads=0 bad=0 seen=()
end=$((SECONDS + 3))
while [ $SECONDS -lt $end ]; do
	cp "$pf" "$tmp/read" 2>/dev/null || continue
	reads=$((reads + 1))
	t=$(grep -c '^# TYPE' "$tmp/read")
	last=$(tail -c 1 "$tmp/read" | od -An -c | tr -d ' ')
	r=$(metric "$tmp/read" ebpftop_refreshes_total)
	if [ "$t" != "$families" ] || [ "$last" != '\n' ] || [ -z "$r" ] ||
		! grep -q '^ebpftop_program_owner_info' "$tmp/read"; then
		bad=$((bad + 1))
		cp "$tmp/read" "$tmp/bad.$bad"
	fi
	seen[$r]=1
done
if [ "$bad" = 0 ] && [ "${#seen[@]}" -ge 5 ]; then
	ok "--prom-file: $reads reads over ${#seen[@]} refreshes, none partial"
else
	fail "--prom-file: $bad partial reads of $reads, ${#seen[@]} refreshes seen"
fi
promtool check metrics <"$pf" >"$tmp/promtool.pf" 2>&1 || fail "promtool on --prom-file: $(cat "$tmp/promtool.pf")"
[ "$(stat -c %a "$pf")" = 644 ] || fail "--prom-file mode $(stat -c %a "$pf"), want 644"
stop_pid "$pf_pid"
left=$(ls -A "$tmp/tf")
[ "$left" = ebpftop.prom ] || fail "files left beside --prom-file: $left"

# ---- the full-screen view and the demo serve too --------------------------------------
port2=$(free_port) || die "no free port"
start tui 120 30 "$(tui_cmd tui screen --listen "$port2" -d 0.3)"
if wait_http "http://127.0.0.1:$port2/metrics" 100 &&
	curl -s "http://127.0.0.1:$port2/metrics" | grep -q "^ebpftop_program_runs_total{prog_id=\"$tl_a_xdp\"}"; then
	ok "the full-screen view serves /metrics"
else
	fail "the full-screen view does not serve /metrics"
fi
tmux_cleanup
port3=$(free_port) || die "no free port"
"$EBPFTOP" --demo -b -q --listen "$port3" -d 0.3 >"$tmp/demo.out" 2>"$tmp/demo.err" &
pids+=($!)
demo_pid=$!
ok_demo=
for _ in $(seq 100); do
	if curl -s "http://127.0.0.1:$port3/metrics" | grep -q 'prog_name="xdp_classifier"'; then
		ok_demo=1
		break
	fi
	sleep 0.1
done
[ -n "$ok_demo" ] && ok "the demo's classifier is exported" ||
	fail "the demo's classifier is not exported: $(cat "$tmp/demo.err")"
stop_pid "$demo_pid"

# ---- a clean exit with a scrape answered and a request half sent ----------------------
port4=$(free_port) || die "no free port"
"$EBPFTOP" -b -q --listen "$port4" --prom-file "$tmp/tf/n.prom" -d 0.3 -n 8 \
	>"$tmp/n.out" 2>"$tmp/n.err" &
n_pid=$!
wait_http "http://127.0.0.1:$port4/metrics" || fail "-n 8 with --listen does not serve"
exec {half}<>"/dev/tcp/127.0.0.1/$port4"
printf 'GET /met' >&"$half"
wait_gone "$n_pid" 100
wait "$n_pid"
rc=$?
exec {half}>&-
if [ "$rc" = 0 ] && [ ! -s "$tmp/n.err" ] && [ ! -s "$tmp/n.out" ]; then
	ok "-n 8 with --listen and --prom-file exits 0, silently, with a request half sent"
else
	fail "-n 8 with --listen: exit $rc, stderr: $(head -c 500 "$tmp/n.err")"
fi
finish
