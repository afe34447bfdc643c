#!/bin/bash
# The series' first part alone (the scheduler's annotations and the trace
# event, the patches mkseries.pl lists in SERIES/part1): a kernel of the
# pristine tree with only those patches, configured as the test kernel
# but with the hooks alone (no trace, no statistics), for a guest that
# checks the event works without them (mt_event.sh, make guest-part1).
#
#   part1.sh BUILD SERIES-DIR
set -euo pipefail
# Not a sub-make of ours: no jobserver to look for.
unset MAKEFLAGS MFLAGS MAKELEVEL
build=$(realpath "$1") series=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
tree=$build/part1/linux out=$build/kernel-part1
die() { echo "harness: $*" >&2; exit 1; }

[ -s "$series/part1" ] || die "no $series/part1 (run make series)"
rm -rf "$build/part1"
mkdir -p "$build/part1"
cp -al "$build/pristine" "$tree"
while read -r p; do
	# Break the hard links of the files the patch changes, then apply.
	for f in $(sed -n 's|^diff --git a/[^ ]* b/\([^ ]*\)$|\1|p' "$series/$p"); do
		[ -f "$tree/$f" ] && cp --remove-destination "$tree/$f" "$tree/$f.tmp" &&
			mv "$tree/$f.tmp" "$tree/$f"
	done
	patch -p1 -s -d "$tree" <"$series/$p" || die "$p does not apply"
done <"$series/part1"
grep -v SNSC_ "$here/kernel.config" >"$build/part1/frag"
echo CONFIG_SNSC_LITE_MIGRATION_HOOKS=y >>"$build/part1/frag"
"$here/configure.sh" "$tree" "$out" "$build/part1/frag"
make -s -C "$tree" O="$out" ARCH=x86_64 -j"$(nproc)" bzImage
echo "harness: $out: the first $(wc -l <"$series/part1") patches, the hooks alone"
