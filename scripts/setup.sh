#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install what ebpftop needs to build and test on Debian 12, then build it
# into ./build. Run as root from anywhere; safe to run again.
#
#   CONFIGURE_FLAGS  extra ./configure flags (CI adds --enable-werror)
#   BUILD_DIR        where to build (default: build next to this script's repo)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}

# Build: toolchain, autotools, libraries, BPF toolchain (clang-19 and llvm-19
# build and decode BPF ISA v4 objects for the insights tests).
# Tests: tmux (TUI), iproute2 (veth, netns), procps/util-linux (ps, setpriv), man-db/groff (man page),
# qemu-system-x86/busybox-static (the profiler's VM tier: Debian's cloud kernel under QEMU),
# curl/prometheus (the exporter: a real Prometheus server and promtool), systemd (systemd-analyze).
packages="gcc make autoconf automake pkg-config \
libbpf-dev libelf-dev zlib1g-dev libncurses-dev libpfm4-dev libcmocka-dev libjson-c-dev libpcap-dev jq \
libmicrohttpd-dev \
clang llvm bpftool clang-19 llvm-19 \
tmux iproute2 procps util-linux man-db groff-base \
qemu-system-x86 busybox-static \
curl prometheus systemd"

if [ "$(id -u)" -ne 0 ]; then
	echo "setup.sh: run as root (it installs Debian packages)" >&2
	exit 1
fi

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup.sh: installing:$missing"
	apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] && [ Makefile.in -nt Makefile.am ] ||
	autoreconf -fi
mkdir -p "$build"
cd "$build"
# shellcheck disable=SC2086
"$top/configure" -q ${CONFIGURE_FLAGS:-}
make -j"$(nproc)"
echo "setup.sh: built $build/ebpftop"
