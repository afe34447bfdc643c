#!/usr/bin/perl
# Every option of scripts/migrate_stats on a small hand-made trace whose
# answers are known: windows, filters, listings, timestamps, periods.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

use Cwd qw(abs_path);
use File::Basename qw(dirname);
my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $tool = "$top/scripts/migrate_stats";
my $dir = tempdir(CLEANUP => 1);

# Times in ms from 1 s of sched clock; wall clock 2023-11-14 22:13:20 UTC.
sub ts { sprintf('0x%016x', 1_000_000_000 + $_[0] * 1_000_000) }
my $trace = join('', map { "$_\n" }
	'# version 1.1.0', '# nr_cpus 3', '# ts_field 1', '# dropped 0',
	'# cause 1 try_to_wake_up', '# cause 2 detach_tasks',
	'# loc 3 copy_process', '# loc 4 set_task_comm', '# loc 5 task_list', '# loc 6 mark',
	ts(0) . ' 0 . . . start_sched_clock 1700000000 0',
	ts(0) . ' 1 . . . start_sched_clock 1700000000 40',
	ts(1) . ' 0 . . 10 5 : alpha',
	ts(1) . ' 0 . . 20 5 : beta gamma',
	ts(100) . ' 0 0 1 10 1',		# A
	ts(600) . ' 1 . . 99 6 0x00000007',	# mark 7
	ts(700) . ' 1 1 2 20 2',		# B
	ts(1200) . ' 2 2 0 10 1',		# C
	ts(1300) . ' 2 . . 10 4 : delta',
	ts(1500) . ' 0 0 2 10 1',		# D (pid 10 is now delta)
	ts(1800) . ' 0 . . 99 6 0x00000010',	# mark 16
	ts(2100) . ' 1 1 0 20 2',		# E
	ts(2200) . ' 1 . . 30 3 : beta gamma',
	ts(2600) . ' 2 2 1 30 1');		# F

sub run {
	my ($args) = @_;
	my $out = `TZ=UTC $tool $args $dir/trace 2>$dir/err`;
	my $rc = $? >> 8;
	my $err = do { local (@ARGV, $/) = ("$dir/err"); <> };
	return wantarray ? ($rc, $out, $err) : $out;
}
open(my $fh, '>', "$dir/trace") or die;
print $fh $trace;
close($fh);

# Which migrations (A..F, by their pid and CPUs) an option set keeps.
my %mig = ('0 1 10' => 'A', '1 2 20' => 'B', '2 0 10' => 'C', '0 2 10' => 'D',
	   '1 0 20' => 'E', '2 1 30' => 'F');
sub kept {
	my $out = run("--migrate @_");
	return join('', map { my @w = split; $mig{"$w[2] $w[3] $w[4]"} // '?' } split /\n/, $out);
}
is(kept(''), 'ABCDEF', 'no filter keeps every migration');
is(kept('--cause detach_tasks'), 'BE', '--cause');
is(kept('--cause_exclude detach_tasks'), 'ACDF', '--cause_exclude');
is(kept('--pid 10 --pid 30'), 'ACDF', '--pid repeats (OR within one filter)');
is(kept('--pid_exclude 10'), 'BEF', '--pid_exclude');
is(kept('--cpu_from 1'), 'BE', '--cpu_from');
is(kept('--cpu_from_exclude 1 --cpu_from_exclude 2'), 'AD', '--cpu_from_exclude repeats');
is(kept('--cpu_to 0'), 'CE', '--cpu_to');
is(kept('--cpu_to_exclude 0'), 'ABDF', '--cpu_to_exclude');
is(kept('--cpu_event 2'), 'CF', '--cpu_event');
is(kept('--cpu_event_exclude 0'), 'BCEF', '--cpu_event_exclude');
is(kept('--comm "beta gamma"'), 'BEF', '--comm matches the name at the time');
is(kept('--comm delta'), 'D', '--comm follows set_task_comm');
is(kept('--comm_exclude alpha'), 'BDEF', '--comm_exclude');
is(kept('--pid 10 --cpu_to 2'), 'D', 'filters of different kinds are ANDed');
is(kept('--begin_mark 7'), 'BCDEF', '--begin_mark');
is(kept('--end_mark 0x10'), 'ABCD', '--end_mark (hex)');
is(kept('--begin_mark 07 --end_mark 16'), 'BCD', 'mark window (octal and decimal)');
is(kept('--begin_sec 1.0'), 'CDEF', '--begin_sec from the first event');
is(kept('--end_sec 1.25'), 'ABC', '--end_sec');
is(kept('--begin_ts ' . ts(650) . ' --end_ts ' . ts(2200)), 'BCDE', '--begin_ts/--end_ts');
is(kept('--begin_sec 0.5 --begin_sec 1.1'), 'CDEF', 'several begins: the latest wins');
is(kept('--end_sec 2.5 --end_mark 16'), 'ABCD', 'several ends: the first reached ends');

my $out = run('--migrate --pid 20');
is($out, "0.700000000 1 1 2 20 beta gamma detach_tasks\n2.100000000 1 1 0 20 beta gamma detach_tasks\n",
   '--migrate layout, --ts_rel from the first event');
$out = run('--migrate --pid 20 --begin_mark 7');
like($out, qr/^0\.100000000 1 1 2 20 /, '--ts_rel counts from the window start');
$out = run('--migrate --pid 30 --ts_abs --ts_rel');
is($out, '2.600000000 ' . ts(2600) . " 2 2 1 30 beta gamma try_to_wake_up\n", '--ts_rel and --ts_abs both print, rel first');
$out = run('--migrate --pid 30 --ts_gmt');
like($out, qr/^22:13:22\.600000000 2 /, '--ts_gmt: wall clock with nanoseconds');
$out = run('--migrate --cpu_event 1 --pid 20 --ts_gmt --ts_date');
like($out, qr{^2023/11/14 22:13:20\.700040000 1 }, '--ts_date; wall clock from the event CPU\'s start');
$out = run('--migrate --pid 30 --ts_local --ts_date');
like($out, qr{^2023/11/14 22:13:22\.600000000 }, '--ts_local (TZ=UTC)');
$out = run('--mark');
is($out, "0.600000000 1 99 0x00000007\n1.800000000 0 99 0x00000010\n", '--mark');
$out = run('--mark_decimal --pid 1');
is($out, "0.600000000 1 99 7\n1.800000000 0 99 16\n", '--mark_decimal; marks pass the pid filter');
$out = run('--ps');
is($out, "0.001000000 0 10 task_list alpha\n0.001000000 0 20 task_list beta gamma\n" .
	 "1.300000000 2 10 set_task_comm delta\n2.200000000 1 30 copy_process beta gamma\n", '--ps');
$out = run('--summary_pid');
like($out, qr/^\s+10\s+3\s+\S+\s+alpha,delta$/m, '--summary_pid: count and every name');
$out = run('--stats');
like($out, qr/^duration_sec 2\.600000$/m, '--stats duration');
like($out, qr/^try_to_wake_up\s+4\s+1\.54$/m, '--stats count and rate per cause');
like($out, qr/^cpu1\s+1\s+0\s+1\s+2$/m, '--stats count matrix row with total');
like($out, qr/^total\s+2\s+2\s+2\s+6$/m, '--stats count matrix column totals');
$out = run('--consistency');
like($out, qr/^ts_spread_ns 0\nwall_spread_us 40$/m, '--consistency spreads');
$out = run('--header_version');
is($out, "1.1.0\n", '--header_version');
$out = run('--period 1000 --period_cpu --max_cpu 3');
like($out, qr/^# nr_cpus 4\n(?:.*\n)*# field 9 to cpu: 3$/m, '--max_cpu overrides # nr_cpus');

# Periods.
$out = run('--period 1000 --period_all --period_cause --period_cpu --period_cpu_pair');
my @names = $out =~ /^# field \d+ (.*)$/mg;
is_deeply(\@names, ['try_to_wake_up', 'detach_tasks', 'migrate',
	(map { "from cpu: $_" } 0 .. 2), (map { "to cpu: $_" } 0 .. 2),
	map { my $f = $_; map { "from cpu: $f to cpu: $_" } 0 .. 2 } 0 .. 2],
	'--period_* field groups and names, in order; every CPU pair, N = M included');
like($out, qr/^# period_msec 1000\n/m, 'periods: # period_msec 1000');
like($out, qr/^# gettimeofday 1700000000 000000\n0\.000 /m, '# gettimeofday just before the data');
my @rows = grep { !/^#/ } split /\n/, $out;
# Period 0 holds A (0 to 1) and B (1 to 2), period 1 C (2 to 0) and D
# (0 to 2); E and F fall in the last, partial period, not written.
is_deeply(\@rows, ['0.000 1.00 1.00 2.00 1.00 1.00 0.00 0.00 1.00 1.00 0.00 1.00 0.00 0.00 0.00 1.00 0.00 0.00 0.00',
		  '1.000 2.00 0.00 2.00 1.00 0.00 1.00 1.00 0.00 1.00 0.00 0.00 1.00 0.00 0.00 0.00 1.00 0.00 0.00'],
	  'only complete periods, whole rows: A and B, then C and D');
$out = run('--period 250 --period_all');
@rows = grep { !/^#/ } split /\n/, $out;
is(join(' ', map { (split)[1] } @rows), '4.00 0.00 4.00 0.00 4.00 0.00 4.00 0.00 4.00 0.00',
   'rates per second at --period 250, idle periods as 0');
$out = run('--period 500 --period_all --period_human');
like((grep { !/^#/ } split /\n/, $out)[0], qr/^0\.000\s{4,}\s+2\.00$/, '--period_human aligns');
my $stat = "$dir/stat";
system("$tool --period 500 --period_all $dir/trace > $stat");
is(`$top/scripts/migrate_extract --field_num migrate $stat`, "2\n", 'migrate_extract reads --period output');

for my $o (qw(help help_format version)) {
	my ($rc, $text) = run("--$o");
	ok($rc == 0 && length($text) > 10, "--$o");
}
my ($rc, $help) = run('--help');
for my $opt (qw(cause comm cpu_event cpu_from cpu_to pid begin_mark end_mark begin_sec end_sec
		begin_ts end_ts migrate mark mark_decimal ps stats summary_pid consistency period
		period_cause period_all period_cpu period_cpu_pair period_human ts_rel ts_abs
		ts_gmt ts_local ts_date max_cpu header_version help_format version)) {
	like($help, qr/--$opt\b/, "--help lists --$opt");
}
my @bad = (
	['--period_all', qr/needs --period/], ['--period 0 --period_all', qr/--period 0/],
	['--period 100', qr/needs at least one/], ['--migrate --ts_date', qr/--ts_date needs/],
	['--migrate --begin_mark zz', qr/--begin_mark wants/], ['--migrate --pid x', qr/--pid wants/],
	['--migrate --comm a --comm_exclude a', qr/contradict/],
	['--migrate --max_cpu 1', qr/CPU 2 is beyond --max_cpu 1/],
	['--bogus', qr/unknown option: bogus/],
);
for my $b (@bad) {
	my ($rc, $o, $err) = run($b->[0]);
	ok($rc == 2 && $err =~ $b->[1] && ($err =~ tr/\n//) == 1, "refused with one line: $b->[0]")
		or diag("rc=$rc err=$err");
}
done_testing();
