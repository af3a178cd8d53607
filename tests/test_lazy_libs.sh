#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# libpfm4, libmicrohttpd and libpcap are opened at first use, not linked
# (src/util/lazy_lib.h). ebpftop does not name them as NEEDED; with each
# made unloadable, the feature that needs it fails in one line that names
# the library and its Debian package (exit 1), and everything else works.
#
# How they are made unloadable, without a switch in ebpftop: a directory
# put first on LD_LIBRARY_PATH holds, under each soname, something the
# dynamic loader finds before the real library and rejects for real:
#   libpfm.so.4          a text file: not an ELF object
#   libpcap.so.0.8       the same
#   libmicrohttpd.so.12  a link to libz: a real library without MHD_*
# Each failure is checked against a control run without that directory, in
# which the same command gets as far as the library's own answer.
set -u
. "${top_srcdir:-.}/tests/lib/testlib.sh"
. "$top_srcdir/tests/lib/export.sh"

classifier=$top_builddir/bpf/xdp_classifier.bpf.o
[ -f "$classifier" ] || die "$classifier is missing (make check builds it)"
command -v objdump >/dev/null || skip "objdump is not installed (binutils)"

# The sonames configure chose (config.h), as ebpftop opens them.
soname() {
	sed -n "s/^#define EBPFTOP_$1 \"\(.*\)\"\$/\1/p" "$top_builddir/config.h"
}
pfm_so=$(soname LIBPFM_SONAME)
mhd_so=$(soname LIBMHD_SONAME)
pcap_so=$(soname LIBPCAP_SONAME)
[ -n "$pfm_so" ] && [ -n "$mhd_so" ] && [ -n "$pcap_so" ] ||
	die "no EBPFTOP_LIB*_SONAME in $top_builddir/config.h"

tmp=$(mktemp -d /tmp/ebpftop-lazy-libs.XXXXXX) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# ---- not linked ---------------------------------------------------------------
needed=$(objdump -p "$EBPFTOP" | awk '$1 == "NEEDED" { print $2 }')
[ -n "$needed" ] || die "objdump -p $EBPFTOP lists no NEEDED libraries"
for lib in libpfm libmicrohttpd libpcap; do
	if grep -q "^$lib\.so" <<<"$needed"; then
		fail "ebpftop links $lib: $(tr '\n' ' ' <<<"$needed")"
	else
		ok "ebpftop does not link $lib"
	fi
done

# ---- the unloadable libraries ---------------------------------------------------
libz=$(ldd "$EBPFTOP" | awk '$1 ~ /^libz\.so/ { print $3 }')
[ -f "$libz" ] || die "cannot find the libz that ebpftop uses (ldd: '$libz')"
libs=$tmp/libs
mkdir "$libs"
for so in "$pfm_so" "$pcap_so"; do
	printf 'this text file stands in for %s: the loader must refuse it\n' \
		"$so" >"$libs/$so"
done
ln -s "$libz" "$libs/$mhd_so"

# run NAME ARGS...: ebpftop with ARGS, with the libraries of $lib_env
# (none: the real ones), output in $tmp/NAME.out and .err, status in $code.
code=0
lib_env=
run() {
	local name=$1

	shift
	run_timeout 30 env ${lib_env:+"$lib_env"} "$EBPFTOP" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
	code=$?
}

# expect_unloadable NAME OPTION SONAME PACKAGE [LACKS]: exit 1, one line on
# stderr that names OPTION, says it cannot load SONAME and which package to
# install; with LACKS, that the library it found lacks that function.
expect_unloadable() {
	local name=$1 opt=$2 so=$3 pkg=$4 lacks=${5:-} err=$tmp/$1.err
	local want="cannot load $so (install the Debian package $pkg): "

	[ -z "$lacks" ] ||
		want="cannot load $so: it lacks $lacks (the Debian package $pkg has it): "

	if [ "$code" != 1 ]; then
		fail "$name without $so: exit $code, want 1 ($(head -c 300 "$err"))"
	elif [ "$(wc -l <"$err")" != 1 ]; then
		fail "$name without $so: want one line on stderr: $(head -c 500 "$err")"
	elif ! grep -qF "ebpftop: $opt: " "$err" ||
	     ! grep -qF "$want" "$err"; then
		fail "$name without $so: unclear message: $(cat "$err")"
	else
		ok "$name without $so -> 1: $(cat "$err")"
	fi
}

broken="LD_LIBRARY_PATH=$libs"

# --list-events: libpfm4 lists the presets; without it, exit 1.
lib_env= run list --list-events
if [ "$code" = 0 ] && grep -q '^default ' "$tmp/list.out"; then
	ok "--list-events with libpfm4 -> 0"
else
	fail "--list-events with libpfm4: exit $code: $(head -c 300 "$tmp/list.err")"
fi
lib_env=$broken run list_x --list-events
expect_unloadable list_x --list-events "$pfm_so" libpfm4

# -e with an event only libpfm4 can encode: libpfm4's own verdict (usage,
# 2), or exit 1 when it cannot be loaded.
lib_env= run ev -b -n 1 -e no_such_event_anywhere
if [ "$code" = 2 ] && grep -q 'libpfm4: ' "$tmp/ev.err"; then
	ok "-e no_such_event_anywhere with libpfm4 -> 2: $(cat "$tmp/ev.err")"
else
	fail "-e with libpfm4: exit $code, want 2 from libpfm4: $(head -c 300 "$tmp/ev.err")"
fi
lib_env=$broken run ev_x -b -n 1 -e no_such_event_anywhere
expect_unloadable ev_x --events "$pfm_so" libpfm4

# --bench --pcap: libpcap's own error for a missing file, or exit 1.
lib_env= run pcap --bench "$classifier" --pcap "$tmp/none.pcap"
if [ "$code" = 2 ] && grep -qF "cannot read '$tmp/none.pcap': " "$tmp/pcap.err"; then
	ok "--pcap with libpcap -> 2: $(cat "$tmp/pcap.err")"
else
	fail "--pcap with libpcap: exit $code, want 2: $(head -c 300 "$tmp/pcap.err")"
fi
lib_env=$broken run pcap_x --bench "$classifier" --pcap "$tmp/none.pcap"
expect_unloadable pcap_x --pcap "$pcap_so" libpcap0.8

# ---- the rest needs root ----------------------------------------------------------
[ "$(id -u)" = 0 ] || skip "not root: --listen and batch mode need root"
lock_integration

port=$(free_port) || die "no free TCP port"
lib_env= run listen -b -n 1 -d 0.1 -f nosuch --listen "127.0.0.1:$port"
if [ "$code" = 0 ]; then
	ok "--listen with libmicrohttpd -> 0"
else
	fail "--listen with libmicrohttpd: exit $code: $(head -c 300 "$tmp/listen.err")"
fi
lib_env=$broken run listen_x -b -n 1 -d 0.1 -f nosuch --listen "127.0.0.1:$port"
# libz stands in for it: the loader takes it, the first function is missing.
expect_unloadable listen_x --listen "$mhd_so" libmicrohttpd12 MHD_start_daemon
if [ -s "$tmp/listen_x.out" ]; then
	fail "--listen without libmicrohttpd: printed a table before failing"
fi

# Batch mode, and the software-event profiler preset, need none of them.
lib_env=$broken run batch_x -b -n 2 -d 0.1 -e sw -f nosuch
if [ "$code" = 0 ] && [ -s "$tmp/batch_x.out" ] && ! [ -s "$tmp/batch_x.err" ] &&
   [ "$(grep -c '^ebpftop .* programs [0-9]' "$tmp/batch_x.out")" = 2 ]; then
	ok "-b -n 2 -e sw without the three libraries -> 0, two refreshes"
else
	fail "-b without the three libraries: exit $code: $(head -c 300 "$tmp/batch_x.err"; head -c 300 "$tmp/batch_x.out")"
fi
finish
