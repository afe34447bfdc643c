#!/bin/bash
# Benchmark of the analysis tools on a generated format 1.2 trace of N
# migrations (default 1000000): for each option set of migrate_stats
# (filters, windows, every summary, every period series, ping-pongs,
# topology), the CPU time, events per second and peak memory, next to
# the CPU time of the floor -- a bare perl -ne '@f = split' loop over the
# same file -- measured in the same run, rounds interleaved (5 by
# default); the least CPU time of each and the ratios by
# harness/bench-tools-report.pl.  Target: every option set
# within 2 x the floor.  Numbers are for reading: no test depends on them
# (t/35 checks the report's arithmetic on synthetic numbers).
#
#   bench-tools.sh OUTFILE [N [ROUNDS]]
set -euo pipefail
out=$1 n=${2:-1000000} rounds=${3:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The trace: 8 CPUs (SMT pairs, 4 CPUs an LLC, 2 nodes), 500 tasks of
# skewed activity (a few busy ones, as in real traces), 6 causes and 6
# reasons of skewed frequency, about 10000 migrations a second (100 s for
# 1M), marks 1 and 2 at 20 % and 80 %, renames and forks, a lost record.
gen() {
	perl -e '
	my ($n) = @ARGV;
	my @c = qw(try_to_wake_up wake_up_new_task detach_tasks detach_one_task migration_cpu_stop push_rt_task);
	my @r = qw(wake_affine idle_sibling idle_core prev_cpu affinity balance_idle);
	print "# version 1.2.0\n# nr_cpus 8\n# ts_field 1\n# overwrite 0\n# buffer_size_kb 65536\n";
	print "# dropped 0\n# overwritten 0\n";
	print "# cpu_lost $_ 0 0\n" for 0 .. 7;
	print "# cause ", $_ + 1, " $c[$_]\n" for 0 .. $#c;
	print "# loc 18 copy_process\n# loc 19 set_task_comm\n# loc 20 task_list\n# loc 21 mark\n";
	print "# loc 22 lost\n# loc 23 saved_comm\n";
	print "# reason ", $_ + 1, " $r[$_]\n" for 0 .. $#r;
	printf("# topology %d %d %d %d\n", $_, $_ & ~1, $_ & ~3, $_ >> 2) for 0 .. 7;
	my $ts = 1_000_000_000;
	srand(1);
	printf("0x%016x %d . . . start_sched_clock 1700000000 0\n", $ts, $_) for 0 .. 7;
	printf("0x%016x 0 . . %d 20 : task%d\n", $ts, $_, $_) for 1 .. 500;
	my @on = map { $_ % 8 } 0 .. 500;
	for my $i (1 .. $n) {
		$ts += 1 + int(rand(200000));
		my $p = 1 + int(500 * rand() ** 3);
		my $t = ($on[$p] + 1 + int(rand(7))) % 8;
		my $k = int(6 * rand() ** 2);
		my $r = rand() < 0.3 ? 0 : 1 + int(6 * rand() ** 2);
		printf("0x%016x %d %d %d %d %d %d\n", $ts, $t, $on[$p], $t, $p, $k + 1, $r);
		$on[$p] = $t;
		printf("0x%016x 0 . . 1 21 0x00000001\n", $ts) if $i == int($n / 5);
		printf("0x%016x 0 . . 1 21 0x00000002\n", $ts) if $i == int(4 * $n / 5);
		printf("0x%016x %d . . %d 19 : task%d.%d\n", $ts, $t, $p, $p, $i) if $i % 5000 == 0;
		printf("0x%016x 3 . . 0 22 7\n", $ts) if $i == int($n / 2);
	}' "$1"
}
gen "$n" >"$tmp/trace"
gen $((n / 4)) >"$tmp/trace4"
first=$(awk '!/^#/ { print $1; exit }' "$tmp/trace")
b=$(printf '0x%016x' $((first + 20000000000)))
e=$(printf '0x%016x' $((first + 70000000000)))

sets=(
	"--stats"
	"--summary_pid"
	"--stats --summary_pid"
	"--stats --cpu_from 1 --cpu_to_exclude 2"
	"--stats --cause try_to_wake_up --pid_exclude 1"
	"--stats --reason wake_affine"
	"--stats --comm task7"
	"--stats --begin_mark 1 --end_mark 2"
	"--stats --begin_sec 20 --end_sec 70"
	"--stats --begin_ts $b --end_ts $e"
	"--topology"
	"--pingpong 1000"
	"--summary_pid --min_count 5000"
	"--period 1000 --period_all --period_cause"
	"--period 1000 --period_cpu"
	"--period 1000 --period_cpu_pair"
	"--period 1000 --period_reason"
	"--period 100 --period_all"
	"--period 1000 --period_all --min_rate 9000"
	"--period 1000 --period_all --pingpong 1000"
	"--migrate"
)
measure() {
	local round=$1 what=$2
	shift 2
	/usr/bin/time -o "$tmp/time" -f '%U %S %M' "$@" >/dev/null
	read -r u s kib <"$tmp/time"
	echo "$what $round $(echo "$u + $s" | bc) $kib"
}
{
	echo "info events $n bytes $(stat -c %s "$tmp/trace") cpus $(nproc) rounds $rounds date $(date -u +%Y-%m-%d)"
	for r in $(seq 1 "$rounds"); do
		measure "$r" floor perl -ne '@f = split' "$tmp/trace"
		for s in "${sets[@]}"; do
			# shellcheck disable=SC2086
			measure "$r" run "$top/scripts/migrate_stats" $s "$tmp/trace" | sed "s/\$/ $s/"
		done
		measure "$r" quarter "$top/scripts/migrate_stats" --stats --summary_pid "$tmp/trace4"
	done
} >"$tmp/raw" 2>/dev/null
"$top/harness/bench-tools-report.pl" "$tmp/raw" | tee "$out"
