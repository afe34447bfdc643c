#!/bin/bash
# Every place of the select_task_rq family that chooses a CPU notes its
# reason, or is excluded with a reason (harness/reason-exclusions), and
# every reason is noted or inferred; the check fails on the unpatched
# tree (it can fail).
. "$(dirname "$0")/lib.sh"
check="perl $TOP/harness/check-reasons.pl"
excl=$TOP/harness/reason-exclusions
out=$($check "$B/linux" "$excl" 2>&1)
rc=$?
n=$(echo "$out" | sed -n 's/^1\.\.//p')
echo "1..$(( ${n:-0} + 2 ))"
echo "$out" | grep -v '^1\.\.'
unnoted=$($check "$B/pristine" "$excl" 2>/dev/null | grep -c 'without noting a reason')
if [ "$unnoted" -gt 10 ]; then
	echo "ok $(( ${n:-0} + 1 )) - the check flags the $unnoted unnoted decisions of the pristine tree"
else
	echo "not ok $(( ${n:-0} + 1 )) - the check flags unnoted decisions (found $unnoted in the pristine tree)"
fi
checker_status $(( ${n:-0} + 2 )) "$out" $rc
