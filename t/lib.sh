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
