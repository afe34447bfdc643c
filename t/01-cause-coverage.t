#!/bin/bash
# Every set_task_cpu()/__set_task_cpu() call of the patched tree is
# attributed to a cause or excluded with a reason; and the check itself
# fails on the unpatched tree (it can fail).
. "$(dirname "$0")/lib.sh"
check="perl $TOP/harness/check-causes.pl"
excl=$TOP/harness/cause-exclusions
out=$($check "$B/linux" "$excl" 2>&1)
rc=$?
n=$(echo "$out" | sed -n 's/^1\.\.//p')
echo "1..$(( ${n:-0} + 2 ))"
echo "$out" | grep -v '^1\.\.'
unattributed=$($check "$B/pristine" "$excl" 2>/dev/null | grep -c 'has no hook')
if [ "$unattributed" -gt 10 ]; then
	echo "ok $(( ${n:-0} + 1 )) - the check flags the $unattributed unhooked calls of the pristine tree"
else
	echo "not ok $(( ${n:-0} + 1 )) - the check flags unhooked calls (found $unattributed in the pristine tree)"
fi
checker_status $(( ${n:-0} + 2 )) "$out" $rc
