#!/bin/bash
# Build build/initramfs.cpio: static busybox, our guest programs (static
# C) and scripts, and the kselftest KTAP helpers.
#
#   mkinitramfs.sh TOP BUILD
set -euo pipefail
top=$1 build=$2
# Built inside the synced tree: the helper includes ../kselftest.h.
st=$build/linux/tools/testing/selftests/migrate_trace_lite
root=$build/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,guest,proc,sys,dev,tmp,results}
cp /bin/busybox "$root/bin/busybox"
cp "$top/harness/guest/init" "$root/init"
chmod 755 "$root/init"
cp "$top"/harness/guest/*.sh "$root/guest/"
cp "$st"/*.sh "$root/guest/"
cp "$build/linux/tools/testing/selftests/kselftest/ktap_helpers.sh" "$root/guest/"
for c in "$st"/*.c; do
	gcc -static -O2 -Wall -Werror -o "$root/guest/$(basename "$c" .c)" "$c"
done
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$build/initramfs.cpio"
