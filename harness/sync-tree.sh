#!/bin/bash
# Bring build/linux up to date: Debian's linux-source-6.12 plus our new
# files and our *.patch edits.  Only files whose content changes are
# rewritten, so Kbuild rebuilds no more than an edit needs.
#
#   sync-tree.sh TOP BUILD      (TOP: this repository, BUILD: build/)
set -euo pipefail
# Not a sub-make of ours: no jobserver to look for.
unset MAKEFLAGS MFLAGS
top=$1
build=$2
tarball=/usr/src/linux-source-6.12.tar.xz
pristine=$build/pristine
tree=$build/linux
mirror_dirs="Documentation fs include kernel lib samples scripts tools"

die() { echo "harness: $*" >&2; exit 1; }

[ -f "$tarball" ] || die "$tarball missing (run harness/deps.sh)"
pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.12)

# 1. A pristine tree, unpacked once per package version.
if [ "$(cat "$pristine/.mt-pkgver" 2>/dev/null)" != "$pkgver" ]; then
	echo "harness: unpacking linux-source-6.12 $pkgver"
	rm -rf "$pristine" "$tree" "$build/linux-source-6.12"
	mkdir -p "$build"
	tar -xJf "$tarball" -C "$build"
	mv "$build/linux-source-6.12" "$pristine"
	echo "$pkgver" >"$pristine/.mt-pkgver"
fi
# 2. The working tree shares unchanged files with it (hard links); every
#    write below removes the link first.
if [ ! -d "$tree" ]; then
	cp -al "$pristine" "$tree"
	: >"$tree/.mt-files"
fi

# Replace $tree/$1 by file $2 unless the content is already the same.
install_if_changed() {
	local dst=$tree/$1 src=$2
	cmp -s "$src" "$dst" 2>/dev/null && return 0
	mkdir -p "$(dirname "$dst")"
	rm -f "$dst"
	cp "$src" "$dst"
	echo "  SYNC    $1" >&2
}

cd "$top"
new_list=$(mktemp)
trap 'rm -rf "$new_list" "$tmp"' EXIT
tmp=$(mktemp -d)
{ find $mirror_dirs MAINTAINERS.patch -type f 2>/dev/null || true; } |
	LC_ALL=C sort >"$new_list"

while read -r f; do
	case $f in
	*.patch)
		target=${f%.patch}
		[ -f "$pristine/$target" ] || die "$f: $target is not in the 6.12 tree"
		mkdir -p "$tmp/$(dirname "$target")"
		cp "$pristine/$target" "$tmp/$target"
		if ! out=$(patch -p1 --batch --fuzz=0 --no-backup-if-mismatch \
				-r - -d "$tmp" <"$f" 2>&1); then
			echo "$out" >&2
			die "$f does not apply to linux-source-6.12 $pkgver; refresh it"
		fi
		install_if_changed "$target" "$tmp/$target"
		echo "$target"
		;;
	*)
		install_if_changed "$f" "$f"
		echo "$f"
		;;
	esac
done <"$new_list" >"$tmp/.now"

# Files we wrote last time but no longer provide go back to pristine.
while read -r f; do
	grep -qxF "$f" "$tmp/.now" && continue
	rm -f "$tree/$f"
	if [ -f "$pristine/$f" ]; then
		cp "$pristine/$f" "$tree/$f"
	fi
	echo "  UNSYNC  $f" >&2
done <"$tree/.mt-files"
cp "$tmp/.now" "$tree/.mt-files"

# Record the exact upstream version used.
{
	echo "linux-source-6.12 $pkgver"
	make -s -C "$tree" kernelversion
} >"$build/version.txt"
