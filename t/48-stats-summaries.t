#!/usr/bin/perl
# migrate_stats' summaries at their boundaries, on small traces made
# here whose answers are worked out by hand or counted from the event
# list: ping-pongs exactly at the threshold (and a fraction of a
# microsecond past it), the median return time of an even and of an odd
# number of returns, each cut to whole microseconds, the cause pair out
# and back; the from/to matrices of an asymmetric trace (row and column
# totals differ), listing only the CPUs that moved tasks; --min_count
# exactly met; the cause table under a cause filter; the lost count when
# the lost lines outnumber the header's counts, and the other way round.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $stats = "$top/scripts/migrate_stats";
my $hdr = "# version 1.2.0\n# nr_cpus 8\n# ts_field 1\n# cause 1 a\n# cause 2 b\n# cause 3 c\n" .
	"# loc 4 copy_process\n# loc 5 set_task_comm\n# loc 6 task_list\n# loc 7 mark\n# loc 8 lost\n";
sub line { sprintf("0x%016x %s\n", 1_000_000_000 + $_[0], $_[1]) }

# ---- ping-pongs -------------------------------------------------------------------

# Task 10 goes 0->1 and back after exactly 1000 us (causes a, b); task
# 11 1->2 and back after 1000.5 us (a, a); task 12 2->3 and back after
# 1999 ns (c, a), then out again after 1000 ns (a, b: a return of the
# return); task 13 4->5, then 5->6 (not a return), then 6->5 after
# 3000 us (a, a).  Return times, cut to whole microseconds: 1000, 1000,
# 1, 1, 3000.
my $pp = write_file('pp', $hdr .
	line(0, '1 0 1 10 1') . line(1_000_000, '0 1 0 10 2') .
	line(2_000_000, '2 1 2 11 1') . line(3_000_500, '1 2 1 11 1') .
	line(4_000_000, '3 2 3 12 3') . line(4_001_999, '2 3 2 12 1') . line(4_002_999, '3 2 3 12 2') .
	line(5_000_000, '5 4 5 13 1') . line(6_000_000, '6 5 6 13 1') . line(9_000_000, '5 6 5 13 1'));
sub pingpong {
	my ($usec) = @_;
	my ($rc, $out, $err) = run("$stats --pingpong $usec $pp");
	return "exit $rc: $err" if $rc;
	my ($n, $med) = $out =~ /^pingpongs (\d+) of 10 migrations\nmedian_return_usec (\S+)$/m;
	my @pairs = $out =~ /^(\w+ +\w+ +\d+)$/mg;
	return join(' ', $n // '?', $med // '?', map { join(':', split) } @pairs);
}
# Pairs of causes: busiest first, then by their numbers.
is(pingpong(1), '1 1 a:b:1', '--pingpong 1: the return after exactly 1000 ns, not the one after 1999 ns');
is(pingpong(2), '2 1 a:b:1 c:a:1', '--pingpong 2: both short returns, each cut to 1 us');
is(pingpong(999), '2 1 a:b:1 c:a:1', '--pingpong 999: not the return after exactly 1000 us');
is(pingpong(1000), '3 1 a:b:2 c:a:1', '--pingpong 1000: the return after exactly 1000 us counts; the median of 1, 1, 1000');
is(pingpong(1000.5), '4 1 a:b:2 a:a:1 c:a:1',
   '--pingpong 1000.5: the return after 1000.5 us counts; of 1, 1, 1000, 1000 the lower median');
is(pingpong(1000.499), '3 1 a:b:2 c:a:1', '--pingpong 1000.499: not the return 1 ns later');
is(pingpong(3000), '5 1000 a:a:2 a:b:2 c:a:1', '--pingpong 3000: five returns, the median of 1, 1, 1000, 1000, 3000');
my ($rc, $out) = run("$stats --pingpong 3000 $pp");
is(join(' ', $out =~ /^ +(\d+) +(\d+) +\S+$/mg), '12 2 10 1 11 1 13 1', '--pingpong: tasks busiest first, then by pid');

# The median of an even and of an odd number of distinct returns: 10,
# 20, 30, 40 us (lower median 20) and 10, 20, 30 us (20).
for my $n (4, 3) {
	my $t = 0;
	my $b = '';
	for my $k (1 .. $n) {
		$b .= line($t, "1 0 1 " . (20 + $k) . " 1") . line($t + $k * 10_000 + 999, "0 1 0 " . (20 + $k) . " 1");
		$t += 1_000_000;
	}
	my ($rc, $out) = run("$stats --pingpong 100 " . write_file("median$n", $hdr . $b));
	like($out, qr/^pingpongs $n of ${\ (2 * $n)} migrations\nmedian_return_usec 20$/m,
	     "the median of $n returns of 10 to ${\ (10 * $n)} us is 20 (the lower of the middle two for an even count)");
}

# ---- the CPU matrices of an asymmetric trace -------------------------------------------

# 0->1 three times, 1->2 once, 2->0 twice, 0->2 five times, 5->0 once
# (CPUs 3, 4, 6 and 7 never move a task) over 2 s.
my @m = ((['0 1']) x 3, ['1 2'], (['2 0']) x 2, (['0 2']) x 5, ['5 0']);
my $b = '';
for my $i (0 .. $#m) {
	my ($f, $t) = split ' ', $m[$i][0];
	$b .= line($i * 2e9 / $#m, "$t $f $t 30 1");
}
($rc, $out) = run("$stats --stats " . write_file('matrix', $hdr . $b));
my %n;
$n{$_->[0]}++ for @m;
my @cpus = (0, 1, 2, 5);
my $want = "from\\to (count)" . join('', map { sprintf(' %9s', $_) } (map { "cpu$_" } @cpus), 'total') . "\n";
for my $f (@cpus) {
	my $row = 0;
	$row += $n{"$f $_"} // 0 for @cpus;
	$want .= sprintf('%-15s', "cpu$f") . join('', map { sprintf(' %9d', $n{"$f $_"} // 0) } @cpus) .
		sprintf(" %9d\n", $row);
}
$want .= sprintf('%-15s', 'total') .
	join('', map { my $t = $_; my $c = 0; $c += $n{"$_ $t"} // 0 for @cpus; sprintf(' %9d', $c) } @cpus) .
	sprintf(" %9d\n", scalar(@m));
ok(index($out, $want) >= 0, 'count matrix: only the CPUs that moved tasks, rows by source, columns by destination, '.
   'column totals by destination') or diag("want:\n$want\ngot:\n$out");
like($out, qr/^total +1\.50 +1\.50 +3\.00 +0\.00 +6\.00$/m,
     'rate matrix: column totals over 2 s (to 0: 3 over 2 s, to 1: 3, to 2: 6, to 5: 0)');
like($out, qr/^cpu0 +0\.00 +1\.50 +2\.50 +0\.00 +4\.00$/m, 'rate matrix: a row and its total');

# ---- --min_count exactly met; the cause table of a filter ----------------------------------

# Task 40 moves 3 times, task 41 twice, task 42 once.
$b = '';
my $t = 0;
for my $p ([40, 1], [41, 2], [40, 3], [42, 1], [41, 1], [40, 2]) {
	$b .= line($t += 1000, "1 0 1 $p->[0] $p->[1]");
}
my $mc = write_file('mincount', $hdr . $b);
for my $c ([2, '40 41', 5], [3, '40', 3], [4, '', 0]) {
	my ($min, $pids, $total) = @$c;
	($rc, $out) = run("$stats --summary_pid --min_count $min $mc");
	is(join(' ', sort $out =~ /^\s+(\d+)\s+\d+\s/mg), $pids, "--min_count $min keeps the tasks of at least $min moves: $pids");
	($rc, $out) = run("$stats --stats --min_count $min $mc");
	like($out, qr/^total\s+$total\s/m, "--min_count $min with --stats counts their $total moves");
}
($rc, $out) = run("$stats --summary_pid $mc");
is(join(' ', $out =~ /^ +(\d+) +(\d+) /mg), '40 3 41 2 42 1', '--summary_pid: busiest first');
($rc, $out) = run("$stats --stats --cause b $mc");
my ($table) = $out =~ m@^cause +count +rate/sec\n(.*?)\n\n@ms;
is(join(' ', ($table // '') =~ /^(\w+)\s+(\d+)\s/mg), 'b 2 total 2', '--cause b: the cause table has b and the total only');

# ---- losses ------------------------------------------------------------------------------

for my $c (["# dropped 2\n# overwritten 1\n", [4, 3], 7], ["# dropped 6\n# overwritten 4\n", [1, 2], 10]) {
	my ($h, $lines, $want) = @$c;
	my $f = write_file('lost', $hdr . $h . line(0, '1 0 1 10 1') .
			   join('', map { line(10, "2 . . 0 8 $_") } @$lines) . line(20, '0 1 0 10 1'));
	my ($rc, $out, $err) = run("$stats --stats $f");
	my ($d, $o) = $h =~ /(\d+)\n.*?(\d+)/s;
	like($out, qr/^lost $want dropped $d overwritten $o gaps 2$/m, "--stats: lost $want, the larger of $d + $o and @$lines summed");
	is($err, "migrate_stats: warning: the trace lost $want events (dropped $d, overwritten $o; 2 gaps)\n",
	   "the warning says $want too");
}
done_testing();
