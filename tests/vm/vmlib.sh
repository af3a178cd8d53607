# SPDX-License-Identifier: GPL-2.0-only
# The VM tier (source it; bash): boot Debian's cloud kernel under QEMU TCG
# with an initramfs of busybox, our binaries and their libraries, run a
# script in the guest, and read its result from the serial console.
# Real fentry/fexit run there, which the project's hosts refuse.
#
#   vm_kernel            find or fetch the kernel: sets VM_KERNEL, or VM_WHY
#   vm_stage DIR         an initramfs tree with busybox and /init
#   vm_add DIR SRC DST   a binary (and the shared libraries it needs)
#   vm_boot DIR SECS LOG pack DIR, boot it, wait for "poweroff"; the
#                        guest script's exit status is vm_boot's
#
# Environment: EBPFTOP_VM_KERNEL (a vmlinuz to use instead),
# EBPFTOP_VM_CACHE (where the kernel is kept; default
# $top_builddir/tests/vm/cache, so reruns do not download it again),
# EBPFTOP_VM_QEMU (default qemu-system-x86_64).

VM_QEMU=${EBPFTOP_VM_QEMU:-qemu-system-x86_64}
VM_CACHE=${EBPFTOP_VM_CACHE:-${top_builddir:-.}/tests/vm/cache}
VM_KERNEL=
VM_WHY=

# vm_tools: whether the host has what the VM tier needs (else VM_WHY).
vm_tools() {
	if ! command -v "$VM_QEMU" >/dev/null 2>&1; then
		VM_WHY="$VM_QEMU is not installed (apt-get install qemu-system-x86)"
		return 1
	fi
	VM_BUSYBOX=
	for b in /bin/busybox /usr/bin/busybox; do
		if [ -x "$b" ] && LC_ALL=C ldd "$b" 2>&1 | grep -q 'not a dynamic executable'; then
			VM_BUSYBOX=$b
			break
		fi
	done
	if [ -z "$VM_BUSYBOX" ]; then
		VM_WHY="no static busybox (apt-get install busybox-static)"
		return 1
	fi
	for t in ldd gzip; do
		if ! command -v "$t" >/dev/null 2>&1; then
			VM_WHY="$t is missing"
			return 1
		fi
	done
	return 0
}

# vm_kernel: the cached vmlinuz, or the one in the package that
# linux-image-cloud-amd64 depends on, downloaded once into the cache.
vm_kernel() {
	local pkg deb x

	if [ -n "${EBPFTOP_VM_KERNEL:-}" ]; then
		VM_KERNEL=$EBPFTOP_VM_KERNEL
		[ -r "$VM_KERNEL" ] && return 0
		VM_WHY="EBPFTOP_VM_KERNEL=$VM_KERNEL is not readable"
		return 1
	fi
	mkdir -p "$VM_CACHE" || { VM_WHY="cannot create $VM_CACHE"; return 1; }
	(
		# One download at a time, even from parallel tests.
		flock -w 600 9 || exit 1
		ls "$VM_CACHE"/vmlinuz-* >/dev/null 2>&1 && exit 0
		command -v apt-cache >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 || exit 2
		pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
			awk '/Depends: linux-image/{print $2; exit}')
		[ -n "$pkg" ] || exit 3
		x=$(mktemp -d "$VM_CACHE/dl.XXXXXX") || exit 4
		# apt's sandbox user may not write here: download as we are.
		if ! (cd "$x" && apt-get download -o APT::Sandbox::User=root "$pkg") >"$x/log" 2>&1; then
			cat "$x/log" >&2
			rm -rf "$x"
			exit 5
		fi
		deb=$(ls "$x"/*.deb | head -n1)
		dpkg -x "$deb" "$x/root" && cp "$x"/root/boot/vmlinuz-* "$VM_CACHE/" || { rm -rf "$x"; exit 6; }
		echo "# cached $(basename "$deb") in $VM_CACHE" >&2
		rm -rf "$x"
	) 9>>"$VM_CACHE/.lock"
	case $? in
	0) ;;
	2) VM_WHY="apt-cache or dpkg is missing: cannot fetch Debian's cloud kernel"; return 1 ;;
	3) VM_WHY="apt-cache knows no linux-image-cloud-amd64 (run apt-get update)"; return 1 ;;
	5) VM_WHY="cannot download the kernel package linux-image-cloud-amd64 depends on (offline?)"; return 1 ;;
	*) VM_WHY="cannot unpack the cloud kernel into $VM_CACHE"; return 1 ;;
	esac
	VM_KERNEL=$(ls "$VM_CACHE"/vmlinuz-* | sort | tail -n1)
	[ -r "$VM_KERNEL" ] || { VM_WHY="no vmlinuz in $VM_CACHE"; return 1; }
	return 0
}

# vm_add STAGE SRC DST: copy binary SRC to STAGE/DST with every library it
# links (ldd), the dynamic loader included, at the same paths.
vm_add() {
	local stage=$1 src=$2 dst=$3 lib

	mkdir -p "$stage/$(dirname "$dst")"
	cp -L "$src" "$stage/$dst" || return 1
	for lib in $(ldd "$src" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib" || return 1
	done
}

# vm_add_terminfo STAGE NAME...: terminfo entries, for curses and tmux.
vm_add_terminfo() {
	local stage=$1 name d

	shift
	for name in "$@"; do
		for d in /lib/terminfo /usr/share/terminfo /etc/terminfo; do
			[ -e "$d/${name:0:1}/$name" ] || continue
			mkdir -p "$stage$d/${name:0:1}"
			cp -L "$d/${name:0:1}/$name" "$stage$d/${name:0:1}/" || return 1
		done
	done
}

# vm_add_locale STAGE: the C.UTF-8 locale (tmux will not start without one).
vm_add_locale() {
	local stage=$1 d

	for d in /usr/lib/locale/C.utf8 /usr/lib/locale/C.UTF-8; do
		[ -d "$d" ] || continue
		mkdir -p "$stage/usr/lib/locale"
		cp -r "$d" "$stage/usr/lib/locale/" || return 1
		return 0
	done
	return 1
}

# vm_stage STAGE GUEST_SCRIPT: busybox, the mount points, /init, and the
# script /init runs (its exit status is the result).
vm_stage() {
	local stage=$1 script=$2

	rm -rf "$stage"
	mkdir -p "$stage"/bin "$stage"/proc "$stage"/sys "$stage"/dev \
		"$stage"/tmp "$stage"/run "$stage"/etc || return 1
	cp "$VM_BUSYBOX" "$stage/bin/busybox" || return 1
	cp "$script" "$stage/guest.sh" || return 1
	cat >"$stage/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
mount -t bpf bpf /sys/fs/bpf
mount -t tracefs tracefs /sys/kernel/tracing
echo "EBPFTOP-VM: booted $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
sh /guest.sh
echo "EBPFTOP-VM-RESULT: $?"
poweroff -f
EOF
	chmod +x "$stage/init"
	echo 'root:x:0:0:root:/:/bin/sh' >"$stage/etc/passwd"
}

# vm_boot STAGE TIMEOUT LOG: pack, boot, wait; returns the guest script's
# status (124 on timeout, 125 when no result came out).
vm_boot() {
	local stage=$1 secs=$2 log=$3 img rc

	img="$stage.cpio.gz"
	(cd "$stage" && find . | "$VM_BUSYBOX" cpio -o -H newc 2>/dev/null | gzip -1) >"$img" || return 125
	# /dev/kvm exists on the project's hosts but KVM guests hang: TCG.
	timeout -k 5 "$secs" "$VM_QEMU" -accel tcg -cpu max -m 1024 -smp 2 \
		-nographic -no-reboot -kernel "$VM_KERNEL" -initrd "$img" \
		-append "console=ttyS0 rdinit=/init quiet panic=-1" \
		</dev/null >"$log" 2>&1
	rc=$?
	rm -f "$img"
	[ $rc -eq 124 ] && return 124
	rc=$(tr -d '\r' <"$log" | sed -n 's/^EBPFTOP-VM-RESULT: \([0-9]*\)$/\1/p' | tail -n1)
	[ -n "$rc" ] || return 125
	return "$rc"
}
