#!/bin/bash
# make mutants-kernel: do the tests notice a hook that names the wrong
# cause or reason?  For each mutant of harness/mutants-kernel.list, one
# at a time: change the patched tree (build/linux) as it says, rebuild
# the test kernel incrementally, boot the guest it names with only the
# tests it names, and record which of them fail (killed) or pass
# (survived); then put the tree's files back.  Last, the clean kernel is
# built again.  The report is out/mutants-kernel.txt; the guests' results
# are in out/mutants-kernel/NAME/.
#
#   [JOBS=N] [CHECK_TIMEOUT=S] [TOPO_QEMU=...] [TOPO_SMP=...] \
#	mutants-kernel.sh TOP [NAME...]
#
# NAME...: only these mutants (all by default).  The repository's own
# files are never changed; an interrupted run restores the tree.
set -uo pipefail
# Not the flags of the make that started this: a build of its own.
unset MAKEFLAGS MFLAGS
top=$(realpath "$1")
shift
B=$top/build
tree=$B/linux
list=$top/harness/mutants-kernel.list
out=$top/out/mutants-kernel
report=$top/out/mutants-kernel.txt
jobs=${JOBS:-$(nproc)}
limit=${CHECK_TIMEOUT:-1500}

die() { echo "mutants-kernel: $*" >&2; exit 2; }

kbuild() {
	make -s -C "$tree" ARCH=x86_64 O="$B/kernel" \
		-j"$jobs" bzImage
}

# ---- the list --------------------------------------------------------------------
names=() guests=() tests=() edits=()
while read -r kw rest; do
	case $kw in
	''|'#'*) ;;
	mutant)	read -r n g t <<<"$rest"
		[ -n "$t" ] || die "$list: mutant $n: want NAME GUEST TEST..."
		case $g in check|topo) ;; *) die "$list: mutant $n: no guest '$g'" ;; esac
		names+=("$n") guests+=("$g") tests+=("$t") edits+=("") ;;
	edit)	[ ${#names[@]} -gt 0 ] || die "$list: an edit before the first mutant"
		read -r f s <<<"$rest"
		[ -f "$tree/$f" ] || die "$list: ${names[-1]}: no $f in the tree"
		edits[-1]+="$f"$'\t'"$s"$'\n' ;;
	*)	die "$list: not a mutant or an edit: $kw $rest" ;;
	esac
done <"$list"

want=("$@")
selected() {
	[ ${#want[@]} -eq 0 ] && return 0
	local w
	for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done
	return 1
}

# ---- changing and restoring the tree ---------------------------------------------
saved=$out/.orig
restore() {
	[ -d "$saved" ] || return 0
	(cd "$saved" && find . -type f) | while read -r f; do
		cp "$saved/$f" "$tree/$f"
	done
	rm -rf "$saved"
}
trap 'restore; echo "mutants-kernel: interrupted; the tree is restored, the kernel is not rebuilt" >&2; exit 130' INT TERM

# mutate I: apply mutant I's edits; fails if one changes nothing.
mutate() {
	local f s
	while IFS=$'\t' read -r f s; do
		[ -n "$f" ] || continue
		if [ ! -f "$saved/$f" ]; then
			mkdir -p "$(dirname "$saved/$f")"
			cp "$tree/$f" "$saved/$f"
		fi
		cp "$tree/$f" "$out/.before"
		perl -0pi -e "$s" "$tree/$f" || return 1
		if cmp -s "$tree/$f" "$out/.before"; then
			echo "'$s' changes nothing in $f"
			return 1
		fi
	done <<<"${edits[$1]}"
}

# ---- the runs --------------------------------------------------------------------
# shellcheck source=../t/lib.sh
MT_TOP=$top . "$top/t/lib.sh"
rm -rf "$out"
mkdir -p "$out"
start=$(date +%s)
results=()
killed=0 total=0 errors=0
for i in "${!names[@]}"; do
	n=${names[$i]} g=${guests[$i]} t=${tests[$i]}
	selected "$n" || continue
	total=$((total + 1))
	t0=$(date +%s)
	dir=$out/$n
	mkdir -p "$dir"
	echo "mutants-kernel: $n ($g: $t)"
	verdict= failed= passed=
	if ! why=$(mutate "$i" 2>&1); then
		verdict=error failed="not applied: $why"
	elif ! kbuild >"$dir/build.log" 2>&1; then
		verdict=error failed="does not build (build.log)"
	else
		sel=$(echo "$t" | awk '{ for (i = 1; i <= NF; i++) if ($i != "kunit") {
			printf "%s%s", s, $i; s = "," } }')
		if [ "$g" = topo ]; then
			QEMU_OPTS=$TOPO_QEMU APPEND="mttests=$sel" "$top/harness/qemu-run.sh" \
				"$B" "$dir" only "$limit" "$TOPO_SMP" >"$dir/qemu.log" 2>&1
		else
			APPEND="mttests=$sel" "$top/harness/qemu-run.sh" "$B" "$dir" only \
				"$limit" >"$dir/qemu.log" 2>&1
		fi || echo "  the guest failed: $(tail -1 "$dir/qemu.log")" >>"$dir/failures"
		for test in $t; do
			tap=$(guest_tap "$test" "mutants-kernel/$n")
			if echo "$tap" | grep -q '^not ok'; then
				failed+="$test "
				echo "$tap" | grep '^not ok' | head -3 | sed "s/^/  $test: /" >>"$dir/failures"
			else
				passed+="$test "
			fi
		done
		[ -n "$failed" ] && verdict=killed || verdict=SURVIVED
	fi
	restore
	case $verdict in
	killed)	killed=$((killed + 1)) ;;
	error)	errors=$((errors + 1)) ;;
	esac
	secs=$(($(date +%s) - t0))
	results+=("$(printf '%-32s %-6s %-8s %-30s %dm%02ds' "$n" "$g" "$verdict" \
		"${failed:-}${passed:+(passed: $passed)}" $((secs / 60)) $((secs % 60)))")
	echo "mutants-kernel: $n: $verdict ${failed:-} ($((secs / 60))m$((secs % 60))s)"
done
trap - INT TERM

echo "mutants-kernel: building the clean kernel again"
if ! kbuild >"$out/clean-build.log" 2>&1; then
	echo "mutants-kernel: the clean kernel does not build (out/mutants-kernel/clean-build.log)" >&2
	errors=$((errors + 1))
fi
secs=$(($(date +%s) - start))
{
	echo "make mutants-kernel, $(date -u '+%Y-%m-%d %H:%M UTC'), $(sed -n 2p "$B/version.txt")"
	echo "each mutant: the patched tree changed as harness/mutants-kernel.list says, the"
	echo "test kernel rebuilt, the guest booted with the tests named; killed when one fails"
	echo
	printf '%-32s %-6s %-8s %-30s %s\n' mutant guest verdict "failing tests" time
	printf '%s\n' "${results[@]}"
	echo
	for i in "${!names[@]}"; do
		f=$out/${names[$i]}/failures
		[ -s "$f" ] || continue
		echo "${names[$i]}:"
		cat "$f"
	done
	echo
	echo "score: $killed of $total killed, $((total - killed - errors)) survived, $errors not run;" \
		"$((secs / 3600))h$(((secs / 60) % 60))m$((secs % 60))s"
} >"$report"
cat "$report"
[ "$killed" = "$total" ]
