#!/bin/bash
# Build the bench initramfs: the test initramfs followed by a second cpio
# archive (the kernel unpacks both) that carries the peers of make bench,
# Debian's own perf, trace-cmd and bpftrace, unchanged, with every shared
# library they load (as ldd resolves them on this host) and the dynamic
# loader.  The packages are those of the "#guest" line of
# harness/deps.txt; their commands are the ones listed there.  bpftrace
# 0.17 compiles a tracepoint's arguments with the kernel's headers: they
# go where Debian's linux-headers package puts them,
# /lib/modules/RELEASE/build, from the tree and the kernel build KOBJ.
#
#   mkinitramfs-peers.sh TOP BUILD KOBJ TEST-INITRAMFS OUTPUT
set -euo pipefail
top=$1 build=$2 kobj=$3 base=$4 output=$5
root=$build/initramfs-peers
rm -rf "$root"
mkdir -p "$root/usr/bin"
deps=$top/harness/deps.txt
pkgs=$(sed -n 's/^#guest[[:space:]]\+//p' "$deps")
[ -n "$pkgs" ] || { echo "harness: no #guest line in $deps" >&2; exit 1; }

# copy FILE: FILE at the same path under the root, links followed.
copy() {
	[ -e "$root$1" ] && return
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
}
for p in $pkgs; do
	for c in $(awk -v p="$p" '!/^#/ && $1 == p { $1 = ""; print }' "$deps"); do
		bin=$(command -v "$c") || { echo "harness: $c missing: install $p" >&2; exit 1; }
		# Debian 12's linux-perf installs the real perf 6.1 binary as
		# /usr/bin/perf; a wrapper script that picks perf_VERSION by
		# the running kernel would not find 6.12's: take the binary.
		if [ "$(head -c 4 "$bin")" != "$(printf '\177ELF')" ]; then
			bin=$(ls /usr/bin/"${c}"_[0-9]* 2>/dev/null | sort -V | tail -1)
			[ -n "$bin" ] || { echo "harness: no ELF binary for $c" >&2; exit 1; }
		fi
		cp "$bin" "$root/usr/bin/$c"
		for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			copy "$lib"
		done
	done
done
rel=$(cat "$kobj/include/config/kernel.release")
hdr=$root/lib/modules/$rel/build
mkdir -p "$hdr/arch/x86"
cp -a "$build/linux/include" "$hdr/include"
cp -a "$build/linux/arch/x86/include" "$hdr/arch/x86/include"
cp -a "$kobj/include/generated" "$hdr/include/generated"
cp -a "$kobj/arch/x86/include/generated" "$hdr/arch/x86/include/generated"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$build/peers.cpio"
cat "$base" "$build/peers.cpio" >"$output"
