#!/bin/bash
# The selftests build and install through the kernel's kselftest
# framework (make -C tools/testing/selftests TARGETS=migrate_trace_lite
# install), so they run on any patched kernel, not only in our guest.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
if make -s -C "$B/linux/tools/testing/selftests" TARGETS=migrate_trace_lite \
	INSTALL_PATH="$tmp" install >"$tmp/log" 2>&1; then
	echo "ok 1 - make TARGETS=migrate_trace_lite install"
else
	echo "not ok 1 - make TARGETS=migrate_trace_lite install"
	sed 's/^/# /' "$tmp/log" | tail -5
fi
# Every mt_*.sh test of the directory (not mt_lib.sh) is in the list.
want=$(cd "$TOP/tools/testing/selftests/migrate_trace_lite" && ls mt_*.sh | grep -vc '^mt_lib.sh$')
listed=$(grep -c '^migrate_trace_lite:mt_.*\.sh$' "$tmp/kselftest-list.txt" 2>/dev/null)
if [ "$listed" = "$want" ]; then
	echo "ok 2 - kselftest-list.txt lists the $want tests"
else
	echo "not ok 2 - kselftest-list.txt lists the $want tests (found ${listed:-0})"
fi
if [ -x "$tmp/migrate_trace_lite/mt_helper" ] && [ -x "$tmp/migrate_trace_lite/mt_place" ] &&
   [ -f "$tmp/migrate_trace_lite/mt_lib.sh" ] &&
   [ -f "$tmp/kselftest/ktap_helpers.sh" ]; then
	echo "ok 3 - mt_helper and mt_place built; mt_lib.sh and the KTAP helpers installed"
else
	echo "not ok 3 - mt_helper and mt_place built; mt_lib.sh and the KTAP helpers installed"
fi
