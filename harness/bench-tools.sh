#!/bin/bash
# Benchmark of the analysis tools on a generated trace of N migrations
# (default 1000000): events per second and peak memory of
# migrate_stats --stats --summary_pid, and of a filtered run.  The numbers
# are for reading, not asserted: no test depends on timing.
#
#   bench-tools.sh OUTFILE [N]
set -euo pipefail
out=$1 n=${2:-1000000}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perl -e '
my ($n) = @ARGV;
my @c = qw(try_to_wake_up wake_up_new_task detach_tasks detach_one_task migration_cpu_stop);
print "# version 1.1.0\n# nr_cpus 4\n# ts_field 1\n# dropped 0\n";
print "# cause ", $_ + 1, " $c[$_]\n" for 0 .. $#c;
print "# loc 6 copy_process\n# loc 7 set_task_comm\n# loc 8 task_list\n# loc 9 mark\n";
my $ts = 1_000_000_000;
srand(1);
printf("0x%016x 0 . . %d 8 : task%d\n", $ts, $_, $_) for 1 .. 500;
for (1 .. $n) {
	$ts += 1 + int(rand(2000));
	my $f = int(rand(4));
	my $t = ($f + 1 + int(rand(3))) % 4;
	printf("0x%016x %d %d %d %d %d\n", $ts, $t, $f, $t, 1 + int(rand(500)), 1 + int(rand(5)));
}' "$n" >"$tmp/trace"

measure() {
	local what=$1
	shift
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null
	read -r secs kib <"$tmp/time"
	printf '%-44s %8.2f s %12.0f events/s %8d KiB peak\n' "$what" "$secs" \
		"$(echo "$n / $secs" | bc -l)" "$kib"
}
{
	echo "migrate_stats on $n generated migrations ($(du -h "$tmp/trace" | cut -f1)), $(nproc) CPUs, $(date -u +%Y-%m-%d)"
	measure "--stats --summary_pid" "$top/scripts/migrate_stats" --stats --summary_pid "$tmp/trace"
	measure "--stats --summary_pid --cpu_from 1 (filtered)" \
		"$top/scripts/migrate_stats" --stats --summary_pid --cpu_from 1 "$tmp/trace"
	measure "--period 1000 --period_all --period_cause" \
		"$top/scripts/migrate_stats" --period 1000 --period_all --period_cause "$tmp/trace"
} | tee "$out"
