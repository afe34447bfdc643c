# Shared by the t/*.t prove tests.
TOP=${MT_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
B=$TOP/build
OUT=$TOP/out

# guest_tap NAME [DIR]: replay the KTAP the guest wrote for selftest NAME
# (in out/DIR, default out/check).  Our harness boots everything the
# selftests need, so a skipped test or plan is a failure here, unless
# MT_ALLOW_SKIP=1 (for a kernel or machine that lacks a part on purpose).
guest_tap() {
	local f=$OUT/${2:-check}/$1.tap
	if [ ! -s "$f" ]; then
		echo "1..1"
		echo "not ok 1 - the guest wrote no $1.tap (see $OUT/${2:-check}/console.log)"
		return
	fi
	# prove reads TAP 13; KTAP's own header line is not TAP.
	grep -v '^KTAP version' "$f" | awk -v allow="${MT_ALLOW_SKIP:-0}" '
		allow == 1 { print; next }
		/^1\.\.0/ { print "1..1"; print "not ok 1 - the whole test was skipped: " $0; next }
		# A skipped subtest (KUnit case) fails the top-level test it is in.
		/^ +ok [0-9]+.*# *[Ss][Kk][Ii][Pp]/ {
			print; sub_skip = $0; gsub(/^ +|#/, "", sub_skip); next
		}
		/^ok [0-9]+/ && sub_skip != "" {
			sub(/^ok/, "not ok"); print $0 " - a subtest was skipped, a failure here: " sub_skip
			sub_skip = ""; next
		}
		/^ok [0-9]+.*# *[Ss][Kk][Ii][Pp]/ {
			sub(/^ok/, "not ok"); sub(/# *[Ss][Kk][Ii][Pp]/, "- skipped, a failure here:")
		}
		{ print }'
}

# checker_status N OUT RC: TAP test N, that the checker that printed OUT
# and exited with RC ran to its end: status 0, and as many results as its
# plan announced.  A checker that dies before its plan, or half way, would
# otherwise leave the test passing on what it had printed.
checker_status() {
	local n=$1 out=$2 rc=$3 plan got
	plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | head -n 1)
	got=$(printf '%s\n' "$out" | grep -c '^\(not \)\{0,1\}ok [0-9]')
	if [ "$rc" = 0 ] && [ -n "$plan" ] && [ "$plan" = "$got" ]; then
		echo "ok $n - the checker ran to its end: exit 0, the $got results it planned"
		return
	fi
	echo "not ok $n - the checker ran to its end: exit $rc, $got results of a plan of ${plan:-none}"
	printf '%s\n' "$out" | grep -v '^\(not \)\{0,1\}ok [0-9]\|^1\.\.' | head -n 5 | sed 's/^/# /'
}
