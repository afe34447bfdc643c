#!/bin/bash
# scripts/kernel-doc -none -Wall is silent on the series' C files and
# headers, every non-static function of a non-test C file has kernel-doc
# (harness/check-kdoc-coverage.pl), and the documentation pulls in the
# kernel-doc of the API.
. "$(dirname "$0")/lib.sh"
files="$(cd "$B/linux" && ls kernel/migrate_trace_lite*.[ch] include/linux/migrate_trace_lite.h | tr '\n' ' ')"
nfiles=$(echo $files | wc -w)
cfiles="$(cd "$B/linux" && ls kernel/migrate_trace_lite*.c | grep -v '_test\.c$' | tr '\n' ' ')"
ncfiles=$(echo $cfiles | wc -w)
echo "1..$((nfiles + ncfiles + 2))"
n=0
for f in $files; do
	out=$(cd "$B/linux" && perl scripts/kernel-doc -none -Wall "$f" 2>&1)
	if [ -z "$out" ]; then
		echo "ok $((++n)) - kernel-doc -none -Wall $f"
	else
		echo "not ok $((++n)) - kernel-doc -none -Wall $f"
		echo "$out" | sed 's/^/# /' | head -10
	fi
done
for f in $cfiles; do
	if out=$(cd "$B/linux" && perl "$TOP/harness/check-kdoc-coverage.pl" "$f" 2>&1); then
		echo "ok $((++n)) - every non-static function of $f has kernel-doc"
	else
		echo "not ok $((++n)) - every non-static function of $f has kernel-doc"
		echo "$out" | sed 's/^/# /' | head -20
	fi
done
rst=$B/linux/Documentation/trace/migrate_trace_lite.rst
if grep -q '^\.\. kernel-doc:: kernel/migrate_trace_lite_control.c' "$rst" &&
   [ "$(cd "$B/linux" && perl scripts/kernel-doc -rst -export kernel/migrate_trace_lite_control.c 2>/dev/null | grep -c '^\.\. c:function::')" = 2 ]; then
	echo "ok $((++n)) - the RST page pulls in the kernel-doc of mt_trace_enable() and mt_trace_mark()"
else
	echo "not ok $((++n)) - the RST page pulls in the kernel-doc of the exported API"
fi
if grep -q '^   migrate_trace_lite$' "$B/linux/Documentation/trace/index.rst"; then
	echo "ok $((++n)) - the page is in the Documentation/trace toctree"
else
	echo "not ok $((++n)) - the page is in the Documentation/trace toctree"
fi
