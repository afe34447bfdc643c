#!/bin/bash
# Compile one object of a matrix build again, the way Kbuild compiled it
# there, with one file of the tree changed by a perl substitution: the
# negative controls of t/07, objects a machine-code check must reject.
#
#   mutant-object.sh BUILD-DIR TREE OBJECT FILE PERL-SUBST OUT-DIR
#
# BUILD-DIR is the matrix build (e.g. build/matrix-on), TREE its source
# tree, OBJECT the object (kernel/sched/core.o), FILE the tree's file to
# change (a header under include/ or the object's source), PERL-SUBST a
# substitution applied to its whole text (s/.../.../s); the object goes
# to OUT-DIR/OBJECT.  Fails if the substitution changes nothing.
set -euo pipefail
build=$(realpath "$1") tree=$(realpath "$2") obj=$3 file=$4 subst=$5 out=$(realpath -m "$6")
cmdfile=$build/$(dirname "$obj")/.$(basename "$obj").cmd
[ -f "$cmdfile" ] || { echo "mutant-object: no $cmdfile" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/src/$(dirname "$file")" "$out/$(dirname "$obj")"
cp "$tree/$file" "$out/src/$file"
perl -0pi -e "$subst" "$out/src/$file"
if cmp -s "$tree/$file" "$out/src/$file"; then
	echo "mutant-object: '$subst' changes nothing in $file" >&2
	exit 1
fi
cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdfile")
# The changed file in place of the tree's: a header is found first on an
# include path of its own, a source is compiled from its copy.
case $file in
include/*)
	cmd=${cmd/ -nostdinc / -nostdinc -I$out/src/include } ;;
*)
	cmd=${cmd// $tree\/$file/ $out/src/$file}
	cmd=${cmd// ..\/linux\/$file/ $out/src/$file} ;;
esac
# The object and its dependency file go to OUT-DIR.
dep=$(dirname "$obj")/.$(basename "$obj").d
cmd=${cmd//$dep/$out/$dep}
cmd=${cmd//$obj/$out/$obj}
cd "$build"
eval "$cmd"
[ -s "$out/$obj" ]
