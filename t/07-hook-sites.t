#!/bin/bash
# The disabled hooks cost their jump-label NOP and nothing else, read from
# the machine code of the build matrix (harness/check-hook-sites.pl):
# - on against off: every mt_hooks_key site is a 2- or 5-byte NOP whose
#   out-of-line block calls __mt_*() or stores a note, no hook is called
#   without its branch, and no function's fall-through path gains an
#   instruction unless harness/hook-sites-accepted explains it; the table
#   goes to out/hook-sites.txt for make bench;
# - full (core scheduling, NUMA balancing, sched_ext compiled): the same
#   site checks, and sites passing the causes only those hunks pass:
#   __MIGRATE_SWAP_TASK (14), TRY_STEAL_COOKIE (15),
#   MOVE_REMOTE_TASK_TO_LOCAL_DSQ (17);
# - i386 (regparm, the cause in %ecx): the site checks;
# - off against pristine (harness/check-pristine.pl): with both options
#   off, every touched object is instruction-identical to the unpatched
#   tree's;
# - negative controls, objects compiled again with one change
#   (harness/mutant-object.sh) that the checks must reject: a hook that
#   reads a global with READ_ONCE() before its branch, and a
#   struct migration_arg that keeps its mt_reason field when off, after
#   its last pointer as the series once had it.
# Missing build products are failures.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# check NAME ARGS...: the checker's TAP without its plan, or one failure.
check() {
	local name=$1 objs=$OUT/matrix/$1.objs out rc
	shift
	if [ ! -s "$objs" ]; then
		echo "not ok - $name: no $objs (make matrix did not build it)"
		return
	fi
	out=$(perl "$TOP/harness/check-hook-sites.pl" --name "$name" "$@" \
		$(cat "$objs") 2>&1)
	rc=$?
	echo "$out" | grep -v '^1\.\.'
	if [ $rc -ne 0 ] && ! echo "$out" | grep -q '^not ok'; then
		echo "not ok - $name: check-hook-sites.pl failed"
		echo "$out" | grep -v '^\(not \)\?ok\|^#\|^1\.\.' | sed 's/^/# /'
	fi
}

# pristine: the off build against the pristine one, every object.
pristine() {
	local objs=$OUT/matrix/off.objs
	if [ ! -s "$objs" ] || [ ! -s "$OUT/matrix/pristine.objs" ]; then
		echo "not ok - pristine: no $objs or pristine.objs (make matrix did not build them)"
		return
	fi
	perl "$TOP/harness/check-pristine.pl" "$B/matrix-off" "$B/matrix-pristine" \
		$(cat "$objs") 2>&1 | grep -v '^1\.\.'
}

# rejected NAME MATRIX FILE SUBST CHECK...: the object kernel/sched/core.o
# of MATRIX compiled with FILE changed by SUBST; CHECK (a command, given
# the mutant's directory last) must fail on it.
rejected() {
	local name=$1 matrix=$2 file=$3 subst=$4 dir=$B/mutant-$1 out
	shift 4
	if ! "$TOP/harness/mutant-object.sh" "$B/matrix-$matrix" "$B/linux" \
		kernel/sched/core.o "$file" "$subst" "$dir" >"$tmp.log" 2>&1; then
		echo "not ok - negative control $name: it does not compile"
		sed 's/^/# /' "$tmp.log" | tail -5
	elif out=$("$@" "$dir" 2>&1); then
		echo "not ok - negative control $name: the check passes it"
		echo "$out" | sed 's/^/# /' | tail -5
	else
		echo "ok - negative control $name: the check rejects it" \
			"($(echo "$out" | grep -c '^not ok') failures)"
	fi
}

{
	mkdir -p "$OUT"
	check on --off "$B/matrix-off" --accept "$TOP/harness/hook-sites-accepted" \
		--table "$OUT/hook-sites.txt" "$B/matrix-on"
	check full --expect-cause 14 --expect-cause 15 --expect-cause 17 "$B/matrix-full"
	check i386 "$B/matrix-i386"
	pristine
	rejected read-before-branch on include/linux/migrate_trace_lite.h \
		's/(void mt_migrate_task\(.*?\{\n)/$1\t(void)READ_ONCE(mt_hooks_key.key.enabled.counter);\n/s' \
		sh -c 'perl "$1/harness/check-hook-sites.pl" --off "$2/matrix-off" "$3" kernel/sched/core.o' \
		sh "$TOP" "$B"
	rejected field-kept off kernel/sched/core.c \
		's/#ifdef CONFIG_SNSC_LITE_MIGRATION_HOOKS\n(\tu8\t+mt_reason;[^\n]*\n)#endif\n(\tstruct set_affinity_pending\t+\*pending;\n)/$2$1/' \
		sh -c 'perl "$1/harness/check-pristine.pl" "$3" "$2/matrix-pristine" kernel/sched/core.o' \
		sh "$TOP" "$B"
} >"$tmp"

# One plan, numbered again.
echo "1..$(grep -c '^\(not \)\?ok' "$tmp")"
awk '/^(not )?ok/ { n++; sub(/^ok( [0-9]+)?/, "ok " n); sub(/^not ok( [0-9]+)?/, "not ok " n) } { print }' "$tmp"
