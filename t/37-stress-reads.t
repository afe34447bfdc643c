#!/bin/bash
# Traces read during the guest's storm of control writes (mt_stress.sh)
# parse cleanly with migrate_stats: no torn or partial record.
. "$(dirname "$0")/lib.sh"
shopt -s nullglob
reads=("$OUT"/check/stress/t.*)
if [ ${#reads[@]} -eq 0 ]; then
	echo "1..1"
	echo "not ok 1 - the guest kept no trace read from the storm in out/check/stress"
	exit 0
fi
echo "1..${#reads[@]}"
n=0
for f in "${reads[@]}"; do
	if err=$("$TOP/scripts/migrate_stats" --stats --summary_pid "$f" 2>&1 >/dev/null); then
		echo "ok $((++n)) - $(basename "$f") ($(grep -vc '^#' "$f") events) parses"
	else
		echo "not ok $((++n)) - $(basename "$f") parses: $err"
	fi
done
