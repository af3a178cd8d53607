#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# --demo's options through the real binary: bad values and the settings
# without --demo exit 2 with one line naming the option; --help lists
# them. As root: a demo that cannot be built (no CAP_NET_ADMIN) exits 1
# with one line naming the capability.
set -u
. "${top_srcdir:-.}/tests/lib/testlib.sh"

tmp=$(mktemp -d /tmp/ebpftop-demo-cli.XXXXXX) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

wrap=()

# ---- bad usage: exit 2, before anything touches the kernel -------------------
for v in 0 1000001 abc "" -5 1.5 1e3 0x10; do
	expect_exit 2 '--demo-pps' --demo --demo-pps "$v"
	expect_exit 2 '--demo-pps' -b --demo --demo-pps="$v"
done
for v in 0 0.0 -1 abc "" 1e3 inf nan 86400.5 0x1 1s; do
	expect_exit 2 '--demo-regress-after' --demo --demo-regress-after "$v"
	expect_exit 2 '--demo-regress-after' -j --demo-regress-after="$v" --demo
done
expect_exit 2 '--demo-pps.*--demo|--demo.*--demo-pps' --demo-pps 100
expect_exit 2 '--demo-regress-after' -b -n 1 --demo-regress-after 3
expect_exit 2 '--demo-pps' --demo --demo-pps
expect_exit 2 "--demo'" --demo=1

# ---- --help lists the options ---------------------------------------------------
"$EBPFTOP" --help >"$tmp/help" 2>&1
for o in '--demo ' '--demo-pps N' '--demo-regress-after SECS'; do
	if grep -qF -- "$o" "$tmp/help"; then
		ok "--help lists $o"
	else
		fail "--help does not list '$o'"
	fi
done

# ---- as root: a demo that cannot be built exits 1 ------------------------------
if [ "$(id -u)" != 0 ]; then
	skip "the rest needs root"
fi
command -v setpriv >/dev/null || skip "setpriv is missing (apt-get install util-linux)"
lock_integration
# Root without CAP_NET_ADMIN: it lists programs, then cannot build the pair.
wrap=(setpriv --bounding-set=-net_admin --inh-caps=-net_admin)
expect_exit 1 'CAP_NET_ADMIN' --demo -b -n 1
expect_exit 1 'CAP_NET_ADMIN' --demo -j -n 1
finish
