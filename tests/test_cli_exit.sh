#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Exit codes and messages of the real binary: bad usage exits 2 with one
# line naming the option; --help and --version exit 0; a closed pipe ends
# batch mode cleanly; without privileges ebpftop exits 1 naming CAP_BPF;
# -j prints valid JSON Lines. The last three need root.
set -u
. "${top_srcdir:-.}/tests/lib/testlib.sh"

tmp=$(mktemp -d /tmp/ebpftop-cli-exit.XXXXXX) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# usage_error NAME-ERE ARGS...: exit 2, one line naming the option.
usage_error() {
	expect_exit 2 "$@"
}

# ---- bad usage: exit 2 (no root needed: nothing touches the kernel) ---------
for v in abc "" 0.05 -1 1s nan inf 1e3 0x1 0 86401; do
	usage_error '--delay' -d "$v"
	usage_error '--delay' --delay "$v"
done
usage_error '--delay' --delay=abc
for v in 0 -3 1.5 abc 99999999999999999999 ""; do
	usage_error '--iterations' -n "$v"
	usage_error '--iterations' --iterations "$v"
done
usage_error '--sort' --sort bogus
usage_error '--sort' -s bogus
usage_error "'-x'" -x
usage_error "'-x'" -b -x
usage_error '--bogus' --bogus
usage_error '--bogus' --bogus=1
usage_error "'-d'|--delay" -d
usage_error "'-d'|--delay" --delay
usage_error "'-n'|--iterations" -b -n
usage_error "'-s'|--sort" -s
usage_error "'-f'|--filter" --filter
usage_error 'foo' foo
usage_error 'foo' -b foo
usage_error 'foo' -b -n 1 -- foo
# Flags given a value: usage errors too (their wording is test_cli's).
usage_error '.' --batch=1
usage_error '.' --no-stats=1

# ---- --help and --version: exit 0, stdout only -------------------------------
for a in -h --help; do
	run_timeout 10 "$EBPFTOP" "$a" >"$tmp/out" 2>"$tmp/err" </dev/null
	code=$?
	if [ "$code" != 0 ] || [ -s "$tmp/err" ] || ! grep -q '^Usage: ebpftop' "$tmp/out"; then
		fail "ebpftop $a: exit $code, stderr '$(cat "$tmp/err")', stdout $(head -n1 "$tmp/out")"
	else
		ok "ebpftop $a -> 0"
	fi
done
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h" 2>/dev/null)
for a in -V --version; do
	run_timeout 10 "$EBPFTOP" "$a" >"$tmp/out" 2>"$tmp/err" </dev/null
	code=$?
	if [ "$code" != 0 ] || [ -s "$tmp/err" ] ||
	   [ "$(cat "$tmp/out")" != "ebpftop ${version:-?}" ]; then
		fail "ebpftop $a: exit $code, stdout '$(cat "$tmp/out")', want 'ebpftop ${version:-?}'"
	else
		ok "ebpftop $a -> 0: $(cat "$tmp/out")"
	fi
done

# ---- write errors: what cannot be printed is a failure (exit 1, one line) ------
# Each printing option with stdout on /dev/full, then with stdout closed.
for a in -h --help -V --version --list-events; do
	for where in full closed; do
		if [ "$where" = full ]; then
			run_timeout 10 "$EBPFTOP" "$a" >/dev/full 2>"$tmp/err" </dev/null
		else
			run_timeout 10 "$EBPFTOP" "$a" 2>"$tmp/err" </dev/null >&-
		fi
		code=$?
		if [ "$code" != 1 ]; then
			fail "ebpftop $a with stdout $where: exit $code, want 1: $(head -c 300 "$tmp/err")"
		elif [ "$(wc -l <"$tmp/err")" != 1 ] ||
		     ! grep -q "^ebpftop: .*: write error: " "$tmp/err" ||
		     LC_ALL=C grep -q '[^ -~]' "$tmp/err"; then
			# One printable line: no garbage from an unset message.
			fail "ebpftop $a with stdout $where: want one line 'ebpftop: OPTION: write error: ...', got: $(head -c 300 "$tmp/err" | od -c | head -5)"
		else
			ok "ebpftop $a with stdout $where -> 1: $(cat "$tmp/err")"
		fi
	done
done
# The same, as ordinary runs, still exit 0.
run_timeout 10 "$EBPFTOP" --list-events >"$tmp/out" 2>"$tmp/err" </dev/null
code=$?
if [ "$code" != 0 ] || [ ! -s "$tmp/out" ]; then
	fail "ebpftop --list-events: exit $code with no output: $(head -c 300 "$tmp/err")"
else
	ok "ebpftop --list-events -> 0, $(wc -l <"$tmp/out") lines"
fi

# ---- what needs root ----------------------------------------------------------
if ! have_bpf; then
	[ "$tl_failures" -eq 0 ] || finish
	skip "not root, or BPF programs cannot be loaded here: the pipe, privilege and JSON checks need both"
fi
lock_integration

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# A reader that goes away ends batch mode: exit 0, no "write error".
# pipe_end READER-COMMAND EBPFTOP-ARGS...
pipe_end() {
	local reader=$1 t0 t1 st

	shift
	t0=$(now_ms)
	run_timeout 10 "$EBPFTOP" "$@" 2>"$tmp/err" </dev/null | $reader >/dev/null
	st=("${PIPESTATUS[@]}")
	t1=$(now_ms)
	if [ "${st[0]}" = 124 ] || [ "${st[0]}" = 137 ]; then
		fail "ebpftop $* | $reader: still running after 10 s"
	elif [ "${st[0]}" != 0 ]; then
		fail "ebpftop $* | $reader: exit ${st[0]}, want 0: $(head -c 300 "$tmp/err")"
	elif [ -s "$tmp/err" ]; then
		fail "ebpftop $* | $reader: wrote to stderr: $(head -c 300 "$tmp/err")"
	elif [ $((t1 - t0)) -gt 5000 ]; then
		fail "ebpftop $* | $reader: took $((t1 - t0)) ms to notice"
	else
		ok "ebpftop $* | $reader -> 0 in $((t1 - t0)) ms"
	fi
}
pipe_end "head -n 1" -b -d 0.1
pipe_end "head -n 1" -b -j -d 0.1
pipe_end "head -n 0" -b -n 1
pipe_end "head -n 0" -b -j -n 3 -d 0.1
pipe_end "head -c 0" -b -d 0.1
pipe_end "true" -b -j -d 0.1

# Without privileges: exit 1, one line that names CAP_BPF.
unpriv=$(cat /proc/sys/kernel/unprivileged_bpf_disabled 2>/dev/null || echo '?')
echo "# kernel.unprivileged_bpf_disabled = $unpriv"
if command -v setpriv >/dev/null; then
	as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
else
	as_nobody=(runuser -u nobody --)
fi
# A copy nobody can reach whatever the build directory's permissions.
chmod 755 "$tmp"
cp "$EBPFTOP" "$tmp/ebpftop" && chmod 755 "$tmp/ebpftop"
for args in "-b -n 1" "-b -j -n 1 -d 0.1" "-b -n 1 --no-stats" "-n 1"; do
	# shellcheck disable=SC2086
	run_timeout 10 "${as_nobody[@]}" "$tmp/ebpftop" $args \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	code=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$code" != 1 ]; then
		fail "ebpftop $args as nobody: exit $code, want 1: $(head -c 300 "$tmp/err")"
	elif [ "$lines" != 1 ] || ! grep -q 'CAP_BPF' "$tmp/err"; then
		fail "ebpftop $args as nobody: want one line naming CAP_BPF, got: $(head -c 300 "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		fail "ebpftop $args as nobody: wrote to stdout"
	else
		ok "ebpftop $args as nobody -> 1: $(cat "$tmp/err")"
	fi
done

# CAP_BPF and CAP_PERFMON without CAP_SYS_ADMIN: listing program ids
# (BPF_PROG_GET_NEXT_ID) still needs CAP_SYS_ADMIN on every kernel, so the
# message must ask for that, not for the capabilities the user already has.
if setpriv --help 2>&1 | grep -q -- --ambient-caps; then
	run_timeout 10 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=+bpf,+perfmon --ambient-caps=+bpf,+perfmon -- \
		"$tmp/ebpftop" -b -n 1 >"$tmp/out" 2>"$tmp/err" </dev/null
	code=$?
	if [ "$code" = 0 ]; then
		ok "ebpftop with CAP_BPF and CAP_PERFMON only works"
	elif [ "$code" != 1 ] || [ "$(wc -l <"$tmp/err")" != 1 ]; then
		fail "ebpftop with CAP_BPF and CAP_PERFMON only: exit $code, want 0 or 1 and one line: $(head -c 300 "$tmp/err")"
	elif ! grep -q 'CAP_SYS_ADMIN' "$tmp/err" || grep -q 'before 5\.8' "$tmp/err"; then
		fail "ebpftop with CAP_BPF and CAP_PERFMON only: the message must name CAP_SYS_ADMIN as needed on this kernel: $(cat "$tmp/err")"
	else
		ok "ebpftop with CAP_BPF and CAP_PERFMON only -> 1: $(cat "$tmp/err")"
	fi
fi

# -j: every line is one JSON object; -n N gives N lines; text mode N tables.
run_timeout 20 "$EBPFTOP" -b -j -n 3 -d 0.1 >"$tmp/out" 2>"$tmp/err" </dev/null
code=$?
if [ "$code" != 0 ] || [ -s "$tmp/err" ]; then
	fail "ebpftop -b -j -n 3: exit $code: $(head -c 300 "$tmp/err")"
elif [ "$(wc -l <"$tmp/out")" != 3 ]; then
	fail "ebpftop -b -j -n 3: $(wc -l <"$tmp/out") lines, want 3"
elif ! "$top_builddir/tests/lib/jsonl_check" 3 <"$tmp/out"; then
	fail "ebpftop -b -j -n 3: output is not JSON Lines"
else
	ok "ebpftop -b -j -n 3: 3 valid JSON lines"
fi
run_timeout 20 "$EBPFTOP" -j -n 2 -d 0.1 -f no-program-is-called-this \
	>"$tmp/out" 2>"$tmp/err" </dev/null
code=$?
if [ "$code" != 0 ] || ! "$top_builddir/tests/lib/jsonl_check" 2 <"$tmp/out" ||
   [ "$(grep -c '"programs":\[\]' "$tmp/out")" != 2 ]; then
	fail "ebpftop -j -n 2 -f <nothing>: exit $code, want 2 records with no programs: $(head -c 300 "$tmp/out")"
else
	ok "ebpftop -j (implies -b) with a filter matching nothing: empty program lists"
fi
run_timeout 20 "$EBPFTOP" -b -n 2 -d 0.1 >"$tmp/out" 2>"$tmp/err" </dev/null
code=$?
if [ "$code" != 0 ] || [ "$(grep -c '^ebpftop ' "$tmp/out")" != 2 ] ||
   [ "$(grep -c '^ *ID  *TYPE  *NAME' "$tmp/out")" != 2 ]; then
	fail "ebpftop -b -n 2: exit $code, want 2 tables: $(head -c 300 "$tmp/out")"
else
	ok "ebpftop -b -n 2: 2 tables"
fi

finish
