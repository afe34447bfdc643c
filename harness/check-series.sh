#!/bin/bash
# Check out/series: it applies with git am onto the pristine files of the
# recorded 6.12 version; checkpatch --strict is silent on every patch;
# and after each patch, in order, the objects it touches build with W=1
# and no warning (bisectable); a patch that changes nothing Kbuild reads
# is not rebuilt; the benchmark path, kept out of the series
# (harness-only/), applies on top of it.  Prints TAP.
#
#   check-series.sh BUILD SERIES-DIR
set -uo pipefail
build=$(realpath "$1") series=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
pristine=$build/pristine
work=$build/series-check
# Every patch but the cover letter (0000-): 0010- ends in 0 too.
mapfile -t patches < <(ls "$series"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-')
n=0
ok() { echo "ok $((++n)) - $1"; }
notok() { echo "not ok $((++n)) - $1"; [ -n "${2:-}" ] && sed 's/^/# /' "$2" | tail -15; }

echo "1..$(( 2 + 2 * ${#patches[@]} ))"
rm -rf "$work"
mkdir -p "$work/am"

# 1. git am onto the pristine versions of the files the series changes.
files=$(grep -h '^--- a/' "${patches[@]}" | sed 's|^--- a/||' | sort -u)
for f in $files; do
	# A file an earlier patch of the series creates is not in the tree.
	[ -f "$pristine/$f" ] || continue
	mkdir -p "$work/am/$(dirname "$f")"
	cp "$pristine/$f" "$work/am/$f"
done
if (cd "$work/am" && git init -q && git add -A &&
    git -c user.name=check -c user.email=check@invalid commit -qm pristine &&
    git -c user.name=check -c user.email=check@invalid am -q "${patches[@]}") >"$work/am.log" 2>&1; then
	ok "git am of the ${#patches[@]} patches onto $(head -1 "$build/version.txt")"
else
	notok "git am of the series onto the pristine tree" "$work/am.log"
fi
# The benchmark path, not mailed, written apart: it applies on top.
if (cd "$work/am" && git -c user.name=check -c user.email=check@invalid am -q \
		"$series"/harness-only/0001-*.patch) >"$work/am-bench.log" 2>&1; then
	ok "the harness-only benchmark patch applies on top of the series"
else
	notok "the harness-only benchmark patch applies on top of the series" "$work/am-bench.log"
fi

# 2. checkpatch --strict, from the pristine tree's root.
for p in "${patches[@]}"; do
	(cd "$pristine" && perl scripts/checkpatch.pl --strict "$p") >"$work/cp.log" 2>&1
	if grep -q '^total: 0 errors, 0 warnings, 0 checks' "$work/cp.log"; then
		ok "checkpatch --strict: $(basename "$p")"
	else
		notok "checkpatch --strict: $(basename "$p")" "$work/cp.log"
	fi
done

# 3. Bisectable: a tree that receives the patches one by one; after each,
#    olddefconfig and a W=1 build of the objects the series touches.
tree=$work/tree
cp -al "$pristine" "$tree"
# The benchmark path is not in the series; the sample module needs
# modules (options a patch has not added yet do not stick until it does).
grep -v BENCH "$here/kernel.config" >"$work/frag"
printf '%s\n' CONFIG_MODULES=y CONFIG_SAMPLES=y CONFIG_SAMPLE_MIGRATE_TRACE_LITE=m \
	CONFIG_SNSC_LITE_MIGRATION_HOOKS=y >>"$work/frag"
objs="kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_policy.o kernel/fork.o fs/exec.o"
# What the kernel's configuration and build cannot read: fail-safe, any
# other file counts as an input (scripts/ holds Kbuild's own programs and
# kernel-doc, which W=1 runs; only our tools there are not inputs).
not_input='^(Documentation/|LICENSES/|tools/testing/|(MAINTAINERS|CREDITS|README)$|scripts/(migrate_[a-z_]+|MigrateTrace/[^/]+\.pm)$)'
# What the configuration reads: Kconfig files, and the fragments behind
# make tinyconfig.
kconfig='(^|/)Kconfig[^/]*$|/configs/[^/]*\.config$'
configured= built=
for p in "${patches[@]}"; do
	# Both sides of every file the patch changes, created, deleted or renamed.
	changed=$(sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' "$p" | sort -u)
	# Break the hard links of the files this patch changes, then apply.
	for f in $changed; do
		[ -f "$tree/$f" ] && cp --remove-destination "$tree/$f" "$tree/$f.tmp" &&
			mv "$tree/$f.tmp" "$tree/$f"
	done
	if ! patch -p1 -s -d "$tree" <"$p" >"$work/build.log" 2>&1; then
		notok "$(basename "$p") builds (does not apply)" "$work/build.log"
		built=
		continue
	fi
	# A patch of documentation, our tools or selftests leaves every input
	# of the kernel's build as the previous build found it: its result
	# stands.
	if [ -n "$configured" ] && ! grep -Eq "$kconfig" <<<"$changed" &&
	   ! grep -Evq "$not_input" <<<"$changed"; then
		if [ -n "$built" ]; then
			ok "after $(basename "$p"): no file the kernel's build reads changed"
		else
			notok "after $(basename "$p"): no input changed since a build that failed"
		fi
		continue
	fi
	# Re-merge the fragment when the options change: options unknown
	# before this patch were dropped.
	if [ -z "$configured" ] || grep -Eq "$kconfig" <<<"$changed"; then
		"$here/configure.sh" "$tree" "$work/out" "$work/frag" >>"$work/build.log" 2>&1
		configured=1
	fi
	want="$objs $("$here/our-objects.sh" "$tree" "$work/out/.config")"
	grep -qx 'CONFIG_SAMPLE_MIGRATE_TRACE_LITE=m' "$work/out/.config" &&
		want="$want samples/migrate_trace_lite/migrate_trace_lite_sample.o"
	if make -s -C "$tree" O="$work/out" ARCH=x86_64 olddefconfig >>"$work/build.log" 2>&1 &&
	   make -s -C "$tree" O="$work/out" ARCH=x86_64 -j"$(nproc)" prepare >>"$work/build.log" 2>&1 &&
	   make -C "$tree" O="$work/out" ARCH=x86_64 -j"$(nproc)" W=1 $want >>"$work/build.log" 2>&1 &&
	   ! grep -q -e 'warning:' -e 'error:' "$work/build.log"; then
		ok "after $(basename "$p"): $(echo $want | wc -w) objects build with W=1, no warning"
		built=1
	else
		built=
		notok "after $(basename "$p"): the touched objects build with W=1" "$work/build.log"
	fi
done
