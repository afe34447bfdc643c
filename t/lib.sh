# Shared by the t/*.t prove tests.
TOP=${MT_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
B=$TOP/build
OUT=$TOP/out

# guest_tap NAME [DIR]: replay the KTAP the guest wrote for selftest NAME
# (in out/DIR, default out/check).
guest_tap() {
	local f=$OUT/${2:-check}/$1.tap
	if [ ! -s "$f" ]; then
		echo "1..1"
		echo "not ok 1 - the guest wrote no $1.tap (see $OUT/${2:-check}/console.log)"
		return
	fi
	# prove reads TAP 13; KTAP's own header line is not TAP.
	grep -v '^KTAP version' "$f"
}
