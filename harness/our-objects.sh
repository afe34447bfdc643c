#!/bin/bash
# Print our objects that a kernel configuration builds, as the tree's
# kernel/Makefile lists them (obj-$(CONFIG_SNSC_...) lines).
#
#   our-objects.sh TREE DOTCONFIG
set -euo pipefail
grep -h '^obj-$(CONFIG_SNSC_' "$1/kernel/Makefile" 2>/dev/null |
while read -r lhs _ obj; do
	opt=${lhs#obj-\$(}
	opt=${opt%)}
	if grep -qx "$opt=y" "$2"; then
		echo "kernel/$obj"
	fi
done | sort -u | tr '\n' ' '
