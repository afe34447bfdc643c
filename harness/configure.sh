#!/bin/bash
# Configure an out-of-tree kernel build: tinyconfig + fragment(s), then
# olddefconfig; fail if any line of the fragments did not stick.
#
#   [ARCH=i386] configure.sh TREE OUTDIR FRAGMENT...
set -euo pipefail
# Not a sub-make of ours: no jobserver to look for.
unset MAKEFLAGS MFLAGS
mkdir -p "$2"
tree=$(realpath "$1") out=$(realpath "$2")
shift 2
make -s -C "$tree" O="$out" ARCH="${ARCH:-x86_64}" tinyconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$@" >/dev/null
make -s -C "$tree" O="$out" ARCH="${ARCH:-x86_64}" olddefconfig >/dev/null

# The effective value of each option is the last fragment's.
declare -A want
for frag in "$@"; do
	while read -r line; do
		case $line in
		CONFIG_*=*) want[${line%%=*}]=$line ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; want[${opt%% *}]=$line ;;
		esac
	done <"$frag"
done
bad=0
for opt in "${!want[@]}"; do
	line=${want[$opt]}
	case $line in
	CONFIG_*) grep -qxF "$line" "$out/.config" && continue ;;
	*) grep -q "^$opt=" "$out/.config" || continue ;;
	esac
	echo "harness: '$line' did not stick in $out/.config" >&2
	bad=1
done
exit $bad
