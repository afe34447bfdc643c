#!/bin/bash
# Every *.patch applies, without fuzz, to the pristine tree of the
# recorded Debian linux-source-6.12 version.
. "$(dirname "$0")/lib.sh"
cd "$TOP"
mapfile -t patches < <(find Documentation fs include kernel lib scripts tools \
	MAINTAINERS.patch -name '*.patch' 2>/dev/null | LC_ALL=C sort)
echo "1..$(( ${#patches[@]} + 1 ))"
n=0
if [ -d "$B/pristine" ] && [ ${#patches[@]} -gt 0 ]; then
	echo "ok $((++n)) - pristine tree: $(head -1 "$B/version.txt" 2>/dev/null)"
else
	echo "not ok $((++n)) - no pristine tree in build/ or no patch (run make tree)"
fi
for p in "${patches[@]}"; do
	if out=$(patch -p1 --dry-run --batch --fuzz=0 -d "$B/pristine" <"$p" 2>&1); then
		echo "ok $((++n)) - $p applies"
	else
		echo "not ok $((++n)) - $p applies"
		echo "$out" | sed 's/^/# /'
	fi
done
