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
# - i386 (regparm, the cause in %ecx): the site checks.
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

{
	mkdir -p "$OUT"
	check on --off "$B/matrix-off" --accept "$TOP/harness/hook-sites-accepted" \
		--table "$OUT/hook-sites.txt" "$B/matrix-on"
	check full --expect-cause 14 --expect-cause 15 --expect-cause 17 "$B/matrix-full"
	check i386 "$B/matrix-i386"
} >"$tmp"

# One plan, numbered again.
echo "1..$(grep -c '^\(not \)\?ok' "$tmp")"
awk '/^(not )?ok/ { n++; sub(/^ok( [0-9]+)?/, "ok " n); sub(/^not ok( [0-9]+)?/, "not ok " n) } { print }' "$tmp"
