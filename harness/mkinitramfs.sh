#!/bin/bash
# Build the guest's initramfs: static busybox, our guest programs (static
# C) and scripts, the recorder, and the kselftest KTAP helpers.
#
#   [ARCH=i386] mkinitramfs.sh TOP BUILD OUTPUT
#
# For i386: Debian's 32-bit busybox-static, and the programs built -m32.
set -euo pipefail
top=$1 build=$2 output=$3
arch=${ARCH:-x86_64}
# Built inside the synced tree: the helper includes ../kselftest.h.
st=$build/linux/tools/testing/selftests/migrate_trace_lite
root=$build/initramfs-$arch
rm -rf "$root"
mkdir -p "$root"/{bin,guest,proc,sys,dev,tmp,results}
cflags="-static -O2 -Wall -Werror"

# Download Debian's i386 busybox-static into DIR and unpack it.  apt gets
# package lists of its own there: dpkg needs no i386 architecture, and an
# i386 index that a mirror serves half-synced cannot hide the host's
# packages from the host's apt-get.
fetch_i386_busybox() {
	local dir=$1 try
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	cat >"$dir/apt.conf" <<-EOF
	APT::Architecture "i386";
	APT::Architectures { "i386"; };
	Dir::State::Lists "$dir/lists";
	Dir::Cache "$dir/cache";
	APT::Sandbox::User "root";
	EOF
	for try in 1 2 3; do
		APT_CONFIG=$dir/apt.conf apt-get -qq update >/dev/null 2>&1 || true
		if (cd "$dir" && APT_CONFIG=$dir/apt.conf apt-get -qq download busybox-static:i386 \
				>/dev/null 2>&1); then
			(cd "$dir" && dpkg-deb -x busybox-static_*_i386.deb .)
			return
		fi
		sleep $((try * 15))
	done
	echo "harness: cannot download Debian's i386 busybox-static (apt-get download busybox-static:i386)" >&2
	exit 1
}
if [ "$arch" = i386 ]; then
	cflags="$cflags -m32"
	deb=$build/busybox-i386
	if [ ! -x "$deb/bin/busybox" ]; then
		rm -rf "$deb" && mkdir -p "$deb"
		fetch_i386_busybox "$deb"
	fi
	cp "$deb/bin/busybox" "$root/bin/busybox"
else
	cp /bin/busybox "$root/bin/busybox"
fi
cp "$top/harness/guest/init" "$root/init"
chmod 755 "$root/init"
cp "$top"/harness/guest/*.sh "$root/guest/"
cp "$st"/*.sh "$root/guest/"
cp "$top/scripts/migrate_record" "$root/guest/"
cp "$build/linux/tools/testing/selftests/kselftest/ktap_helpers.sh" "$root/guest/"
# The in-kernel API's sample module, built with the test kernel (not for
# i386: its kernel has no modules); mt_sample.sh loads it.
ko=$build/kernel/samples/migrate_trace_lite/migrate_trace_lite_sample.ko
if [ "$arch" = x86_64 ] && [ -f "$ko" ]; then
	cp "$ko" "$root/guest/"
fi
# The functions our kernel files define, one a line: a kernel report is
# ours when a stack frame names one (kcsan.sh).  Names only: the kernel's
# other mt_* functions (the maple tree's) are not ours.
perl -ne 'print "$1\n" if /^(?!#)[A-Za-z_][^;=(]*?\b([a-z_][a-z0-9_]*)\(/ && !/;\s*$/' \
	"$top"/kernel/migrate_trace_lite*.c | sort -u >"$root/guest/our-functions"
# The selftests' programs, as their Makefile builds them: mt_helper with
# its workloads (mt_load.c), mt_place.
# shellcheck disable=SC2086
gcc $cflags -o "$root/guest/mt_helper" "$st/mt_helper.c" "$st/mt_load.c"
# shellcheck disable=SC2086
gcc $cflags -o "$root/guest/mt_place" "$st/mt_place.c"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$output"
