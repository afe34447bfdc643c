#!/bin/bash
# Every command the harness, the tests and the programs they run call is
# provided: harness/deps.sh --check finds each command of harness/deps.txt
# on this machine, and harness/check-deps.pl finds every command our host
# scripts call in deps.txt and every command of the guest scripts in the
# busybox we boot.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/bin/busybox --list >"$tmp/applets" 2>/dev/null
out=$(perl "$TOP/harness/check-deps.pl" "$TOP" "$tmp/applets" 2>&1)
rc=$?
n=$(echo "$out" | sed -n 's/^1\.\.//p')
echo "1..$(( ${n:-0} + 2 ))"
if err=$("$TOP/harness/deps.sh" --check 2>&1); then
	echo "ok 1 - every command of harness/deps.txt is installed"
else
	echo "not ok 1 - every command of harness/deps.txt is installed"
	echo "$err" | sed 's/^/# /'
fi
echo "$out" | grep -v '^1\.\.' | awk '/^ok / { $2 += 1 } /^not ok / { $3 += 1 } { print }'
checker_status $(( ${n:-0} + 2 )) "$out" $rc
