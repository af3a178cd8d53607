#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What ships beside the exporter: the systemd unit passes systemd-analyze
# verify without a word, and its command line, run with only the unit's
# capabilities and no new privileges, exports the test programs; the bash
# completion loads and completes every option of --help and the values it
# offers are accepted.
set -u
. "${top_srcdir:-.}/tests/lib/testlib.sh"
. "$top_srcdir/tests/lib/export.sh"

tmp=$(mktemp -d /tmp/ebpftop-dist.XXXXXX) || die "mktemp failed"
ebpftop_pid=
cleanup() {
	stop_pid "$ebpftop_pid"
	tl_stop a
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

bin=$(cd "$(dirname "$EBPFTOP")" && pwd)
unit_in=$top_srcdir/dist/ebpftop-exporter.service.in
completion=$top_srcdir/dist/bash-completion/ebpftop

# ---- the bash completion -------------------------------------------------------
# complete_words WORD...: COMPREPLY for the command line "ebpftop WORD...".
complete_words() {
	PATH=$bin:$PATH bash -c '
		. "$1" || exit 1
		shift
		COMP_WORDS=(ebpftop "$@")
		COMP_CWORD=$(($# ))
		_ebpftop
		printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@"
}
bash -c ". '$completion' && complete -p ebpftop" 2>&1 | grep -q -- '-F _ebpftop ebpftop$' &&
	ok "the completion loads and registers _ebpftop" || fail "the completion does not load"
complete_words -- >"$tmp/longs"
complete_words - >"$tmp/all"
"$EBPFTOP" --help | awk '/^ +-/ { for (i = 1; i <= NF; i++) { w = $i; sub(/,$/, "", w);
	if (w !~ /^-/) break; print w } }' | sort -u >"$tmp/help"
nopts=$(wc -l <"$tmp/help")
missing=$(comm -23 "$tmp/help" <(sort -u "$tmp/all"))
[ "$nopts" -ge 20 ] || fail "only $nopts options found in --help"
[ -z "$missing" ] && ok "all $nopts options of --help complete" ||
	fail "options not completed: $missing"
grep -q -- '^-' <(grep -v -- '^--' "$tmp/longs") && fail "'--' completes short options"
[ "$(complete_words --li | sort | tr '\n' ' ')" = "--list-events --listen " ] ||
	fail "--li completes to: $(complete_words --li | tr '\n' ' ')"
[ "$(complete_words --prom | tr -d '\n')" = "--prom-file" ] || fail "--prom does not complete to --prom-file"
keys=$(complete_words -s '')
for k in $keys; do
	"$EBPFTOP" -s "$k" -V >/dev/null 2>&1 || fail "sort key '$k' offered but refused"
done
[ -n "$keys" ] && ok "-s completes to keys ebpftop accepts: $(echo $keys)" || fail "-s completes nothing"
for e in $(complete_words -e ''); do
	"$EBPFTOP" --list-events 2>/dev/null | grep -q "^$e " || fail "event preset '$e' offered but not listed"
done
for l in $(complete_words --listen ''); do
	"$EBPFTOP" --listen "$l" -b -q --help >/dev/null 2>&1 || fail "--listen value '$l' offered but refused"
done
for r in $(complete_words --report ''); do
	"$EBPFTOP" --report "$r" -V >/dev/null 2>&1 || fail "--report value '$r' offered but refused"
done
touch "$tmp/x.prom"
[ "$(complete_words --prom-file "$tmp/x.")" = "$tmp/x.prom" ] && ok "--prom-file completes file names" ||
	fail "--prom-file completes: $(complete_words --prom-file "$tmp/x.")"

# ---- the man page's Prometheus examples are valid -----------------------------------
man=${EBPFTOP_MAN:-$top_srcdir/man/ebpftop.8}
if command -v promtool >/dev/null; then
	sed -n '/^groups:$/,/^\.EE$/p' "$man" | sed '$d; s/\\-/-/g' >"$tmp/rules.yml"
	if [ -s "$tmp/rules.yml" ] && promtool check rules "$tmp/rules.yml" >"$tmp/rules.out" 2>&1; then
		ok "the man page's alert rule passes promtool check rules"
	else
		fail "the man page's alert rule: $(cat "$tmp/rules.out")"
	fi
	{
		sed -n '/^scrape_configs:$/,/^\.EE$/p' "$man" | sed '$d; s/\\-/-/g; s/\\(aq/'"'"'/g'
	} >"$tmp/prometheus.yml"
	if grep -q 'localhost:9474' "$tmp/prometheus.yml" &&
		promtool check config "$tmp/prometheus.yml" >"$tmp/config.out" 2>&1; then
		ok "the man page's scrape configuration passes promtool check config"
	else
		fail "the man page's scrape configuration: $(cat "$tmp/config.out") $(cat "$tmp/prometheus.yml")"
	fi
fi

# ---- the systemd unit --------------------------------------------------------------
command -v systemd-analyze >/dev/null || skip "systemd-analyze is missing (apt-get install systemd)"
sed "s|@sbindir@|$bin|g" "$unit_in" >"$tmp/ebpftop-exporter.service"
mkdir -p "$tmp/man/man8"
ln -s "$(cd "$top_srcdir/man" && pwd)/ebpftop.8" "$tmp/man/man8/ebpftop.8"
MANPATH=$tmp/man systemd-analyze verify "$tmp/ebpftop-exporter.service" >"$tmp/verify" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$tmp/verify" ]; then
	ok "systemd-analyze verify: no complaint"
else
	fail "systemd-analyze verify: exit $rc: $(cat "$tmp/verify")"
fi
systemd-analyze security --offline=true "$tmp/ebpftop-exporter.service" 2>/dev/null |
	grep 'Overall exposure' | sed 's/^/# /'

have_bpf || skip "needs root and BPF to run the unit's command"
command -v setpriv >/dev/null || skip "setpriv is missing (apt-get install util-linux)"
lock_integration
tl_start a "$tmp" || die "the test loader did not start: $(cat "$tmp/a.err")"
# The unit's command line with its defaults, the port changed to a free one
# and refreshes faster (a later -d wins).
port=$(free_port) || die "no free port"
listen=$(sed -n 's/^Environment=EBPFTOP_LISTEN=\([^ ]*\) .*/\1/p' "$tmp/ebpftop-exporter.service")
args=$(sed -n 's/^Environment=.*"EBPFTOP_ARGS=\([^"]*\)".*/\1/p' "$tmp/ebpftop-exporter.service")
exec_start=$(sed -n 's/^ExecStart=//p' "$tmp/ebpftop-exporter.service")
[ "$listen" = 127.0.0.1:9474 ] || fail "the unit listens on '$listen', not on loopback"
cmd=${exec_start//\$\{EBPFTOP_LISTEN\}/127.0.0.1:$port}
cmd="${cmd//\$EBPFTOP_ARGS/$args} -d 0.3"
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$tmp/ebpftop-exporter.service" |
	tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')
echo "# running: setpriv --bounding-set=-all,$caps --no-new-privs $cmd"
# shellcheck disable=SC2086
setpriv --bounding-set="-all,$caps" --inh-caps=-all --no-new-privs $cmd \
	>"$tmp/unit.out" 2>"$tmp/unit.err" &
ebpftop_pid=$!
if wait_http "http://127.0.0.1:$port/metrics" 100; then
	tl_cmd a run xdp 77 >/dev/null	# stats are on now
	for _ in $(seq 50); do
		curl -s "http://127.0.0.1:$port/metrics" >"$tmp/m"
		[ "$(metric "$tmp/m" "ebpftop_program_runs_total{prog_id=\"$tl_a_xdp\"}")" = 77 ] && break
		sleep 0.1
	done
	if [ "$(metric "$tmp/m" "ebpftop_program_runs_total{prog_id=\"$tl_a_xdp\"}")" = 77 ] &&
		grep -q "^ebpftop_program_owner_info{prog_id=\"$tl_a_xdp\",comm=\"testload\"} 1$" "$tmp/m" &&
		[ "$(metric "$tmp/m" ebpftop_bpf_stats_enabled)" = 1 ]; then
		ok "with only the unit's capabilities: runs, owners and stats are exported"
	else
		fail "with only the unit's capabilities: $(grep "prog_id=\"$tl_a_xdp\"" "$tmp/m" | head -3)"
	fi
else
	fail "the unit's command does not serve: $(cat "$tmp/unit.err")"
fi
finish
