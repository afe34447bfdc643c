#!/usr/bin/perl
# Issue 14's compatibility and arithmetic, on generated inputs whose
# answers this test computes on its own: rates over windows closed by
# each kind of end, wall-clock times around second boundaries (UTC and
# a zone 5:30 east of it), every 1.0 option spelling and unique
# abbreviation of migrate_stats and migrate_extract, the 1.0 layout of
# --period_cpu_pair, and the rounded '# gettimeofday' of migrate_extract.
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use POSIX qw(strftime);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my ($stats, $extract) = map { "$top/scripts/migrate_$_" } qw(stats extract);
my $dir = tmpdir();

my $hdr = "# version 1.1.0\n# nr_cpus 3\n# ts_field 1\n# dropped 0\n" .
	"# cause 1 try_to_wake_up\n# cause 2 detach_tasks\n" .
	"# loc 3 copy_process\n# loc 4 set_task_comm\n# loc 5 task_list\n# loc 6 mark\n";
my $t0 = 5_000_000_000;			# sched clock of the first event, ns
sub ts { sprintf('0x%016x', $t0 + $_[0]) }

# ---- rates over windows ------------------------------------------------------

# Migrations every 7 ms from 0 to 8 s; marks 0x100 at B = 1.0005 s and
# 0x200 at E = 6.0005 s; the last event at 8 s.  Each window is B to E:
# 5.000 s, and no migration falls on its end.
my ($B, $E) = (1_000_500_000, 6_000_500_000);
my @mig;
my $body = ts(0) . " 0 . . . start_sched_clock 1700000000 0\n";
$body .= ts(0) . " 0 . . 10 5 : alpha\n" . ts(0) . " 0 . . 11 5 : beta\n";
for (my $t = 3_000_000; $t < 8e9; $t += 7_000_000) {
	$body .= ts($B) . " 0 . . 1 6 0x00000100\n" if $t > $B && $t - 7e6 <= $B;
	$body .= ts($E) . " 0 . . 1 6 0x00000200\n" if $t > $E && $t - 7e6 <= $E;
	$body .= ts($E + 2e6) . " 0 . . 1 6 0x00000201\n" if $t > $E + 2e6 && $t - 7e6 <= $E + 2e6;
	push @mig, $t;
	my ($from, $to) = (@mig % 3, (@mig + 1) % 3);
	$body .= ts($t) . " $to $from $to " . (10 + @mig % 2) . " " . (1 + @mig % 2) . "\n";
}
$body .= ts(8e9) . " 0 . . 1 6 0x00000300\n";
my $trace = write_file('window.trace', $hdr . $body);
# Without the mark at E, the first event past E is 1 to 7 ms later.
my $nomark = write_file('window2.trace', $hdr . ($body =~ s/^\S+ 0 \. \. 1 6 0x00000200\n//mr));
my $in = grep { $_ >= $B && $_ < $E } @mig;
my $in10 = 0;
for my $i (0 .. $#mig) {
	$in10++ if $mig[$i] >= $B && $mig[$i] < $E && (10 + ($i + 1) % 2) == 10;
}
for my $w (['marks', '--begin_mark 0x100 --end_mark 0x200', $trace],
	   ['seconds', '--begin_sec 1.0005 --end_sec 6.0005', $nomark],
	   ['timestamps', '--begin_ts ' . ts($B) . ' --end_ts ' . ts($E), $nomark]) {
	my ($rc, $out) = run("$stats --stats --summary_pid $w->[1] $w->[2]");
	like($out, qr/^duration_sec 5\.000000$/m, "window by $w->[0]: 5 s long");
	like($out, qr/^migrations $in rate ${\ sprintf('%.2f', $in \/ 5)}$/m,
	     "window by $w->[0]: $in migrations at ${\ sprintf('%.2f', $in / 5)}/s");
	like($out, qr/^\s+10\s+$in10\s+${\ sprintf('%.2f', $in10 \/ 5)}\s+alpha$/m,
	     "window by $w->[0]: --summary_pid rate of pid 10 over 5 s");
}
my ($rc, $out) = run("$stats --stats --begin_sec 1.0005 $trace");
like($out, qr/^duration_sec 6\.999500$/m, 'no end option: the window runs to the last event');
($rc, $out) = run("$stats --stats --begin_sec 1.0005 --end_sec 100 $trace");
like($out, qr/^duration_sec 6\.999500$/m, 'an end never reached: to the last event');

# ---- wall clock around second boundaries ---------------------------------------

# The start clock: 1700000000.999999 s at sched clock T0.  An event at
# T0 + d is at wall 1700000000 s + 999999000 ns + d.
my @offsets = (1_000 - 120, 1_000 - 32, 1_000 - 1, 1_000, 1_000 + 1, 2_000_000_000 + 999);
my $wtrace = $hdr . ts(0) . " 0 . . . start_sched_clock 1700000000 999999\n" .
	ts(0) . " 0 . . 10 5 : alpha\n" .
	join('', map { ts($_) . " 1 0 1 10 1\n" } @offsets);
$trace = write_file('wall.trace', $wtrace);
sub wall_want {
	my ($d, $shift, $date) = @_;
	my $ns = 999_999_000 + $d;
	my $sec = 1700000000 + int($ns / 1e9);
	my $fmt = $date ? '%Y/%m/%d %H:%M:%S' : '%H:%M:%S';
	return strftime($fmt, gmtime($sec + $shift)) . sprintf('.%09d', $ns % 1e9);
}
for my $z (['UTC', 'TZ=UTC', '--ts_gmt', 0], ['local UTC+5:30', 'TZ=XYZ-5:30', '--ts_local', 19800],
	   ['gmt under UTC+5:30', 'TZ=XYZ-5:30', '--ts_gmt', 0]) {
	my ($name, $tz, $opt, $shift) = @$z;
	($rc, $out) = run("$tz $stats --migrate $opt --ts_date $trace");
	is($out, join('', map { wall_want($_, $shift, 1) . " 1 0 1 10 alpha try_to_wake_up\n" } @offsets),
	   "$name: wall clock to the nanosecond around second boundaries, never a negative fraction");
}
($rc, $out) = run("TZ=XYZ-5:30 $stats --migrate --ts_gmt --ts_local $trace");
like($out, qr/^22:13:20\.999999968 03:43:20\.999999968 1 0 1 /m, '--ts_gmt and --ts_local both print');

# ---- --period_cpu_pair: the 1.0 layout -------------------------------------------

{
	my ($b, %n) = ('');
	srand(7);
	my $t = 0;
	for (1 .. 2000) {
		$t += 1_000_000 + int(rand(5e6));
		my $f = int(rand(3));
		my $to = ($f + 1 + int(rand(2))) % 3;
		$n{int($t / 1e9)}{"$f $to"}++;
		$b .= ts($t) . " $to $f $to 10 1\n";
	}
	$trace = write_file('pair.trace', $hdr . ts(0) . " 0 . . 10 5 : alpha\n" . $b);
	($rc, $out) = run("$stats --period 1000 --period_cpu_pair $trace");
	my @names = $out =~ /^# field \d+ (.*)$/mg;
	is_deeply(\@names, [map { my $f = $_; map { "from cpu: $f to cpu: $_" } 0 .. 2 } 0 .. 2],
		  '--period_cpu_pair: NR_CPUS squared fields, 0 to 0, 0 to 1, ..., the diagonal included');
	my @nums = $out =~ /^# field (\d+) /mg;
	is_deeply(\@nums, [2 .. 10], '... numbered 2 to 10 after the timestamp');
	my @rows = grep { !/^#/ } split /\n/, $out;
	my @want = map { my $s = $_; sprintf('%d.000 ', $s) . join(' ', map { my $f = $_;
		map { sprintf('%.2f', $n{$s}{"$f $_"} // 0) } 0 .. 2 } 0 .. 2) } 0 .. $#rows;
	is_deeply(\@rows, \@want, '... every row, field by field, with zeros on the diagonal');
	ok(@rows >= 1, scalar(@rows) . ' complete periods compared');
}

# ---- 1.0 option spellings and abbreviations ---------------------------------------

# The 2010 option sets (formats-1.0.md), with the arguments each needs to
# do something: [option, value or undef, other arguments].
my $sample = write_file('sample.trace', $hdr . ts(0) . " 0 . . . start_sched_clock 1700000000 0\n" .
	ts(1) . " 0 . . 10 5 : alpha\n" . ts(1) . " 0 . . 11 5 : beta\n" . ts(2e8) . " 1 0 1 10 1\n" .
	ts(25e7) . " 0 1 0 11 2\n" . ts(3e8) . " 0 . . 1 6 0x00000007\n" .
	ts(5e8) . " 2 1 2 10 2\n" . ts(9e8) . " 0 2 0 10 1\n" . ts(12e8) . " 0 0 1 10 1\n");
my @stats10 = (
	['cause', 'detach_tasks', '--stats'], ['cause_exclude', 'detach_tasks', '--stats'],
	['comm', 'alpha', '--migrate'], ['comm_exclude', 'alpha', '--migrate'],
	['cpu_event', 1, '--migrate'], ['cpu_event_exclude', 1, '--migrate'],
	['cpu_from', 1, '--migrate'], ['cpu_from_exclude', 1, '--migrate'],
	['cpu_to', 1, '--migrate'], ['cpu_to_exclude', 1, '--migrate'],
	['pid', 10, '--migrate'], ['pid_exclude', 10, '--migrate'],
	['begin_mark', 7, '--migrate'], ['end_mark', 7, '--migrate'],
	['begin_sec', 0.4, '--migrate'], ['end_sec', 0.4, '--migrate'],
	['begin_ts', ts(4e8), '--migrate'], ['end_ts', ts(4e8), '--migrate'],
	['migrate', undef, ''], ['mark', undef, ''], ['mark_decimal', undef, ''], ['ps', undef, ''],
	['stats', undef, ''], ['summary_pid', undef, ''], ['consistency', undef, ''],
	['period', 500, '--period_all'], ['period_all', undef, '--period 500'],
	['period_cause', undef, '--period 500'], ['period_cpu', undef, '--period 500'],
	['period_cpu_pair', undef, '--period 500'], ['period_human', undef, '--period 500 --period_all'],
	['ts_rel', undef, '--migrate'], ['ts_abs', undef, '--migrate'], ['ts_gmt', undef, '--migrate'],
	['ts_local', undef, '--migrate'], ['ts_date', undef, '--migrate --ts_gmt'],
	['max_cpu', 5, '--stats'], ['header_version', undef, ''], ['help', undef, ''],
	['help_format', undef, ''], ['version', undef, '']);
my $stat = write_file('sample.stat', "# version 1.1.0\n# period_msec 250\n" .
	"# gettimeofday 1700000000 999600\n# ts_field 1\n# nr_cpus 4\n# field 2 alpha\n" .
	"# field 3 try_to_wake_up/wake_affine\n# field 4 migrate\n" .
	"0.000 1 2 3\n0.250 0 0 0\n0.500 5 1 6\n0.750 3 3 6\n1.000 2 0 2\n");
my @extract10 = (
	['field_name', 3, ''], ['field_num', 'migrate', ''], ['min_field', undef, ''],
	['max_field', undef, ''], ['nr_cpus', undef, ''], ['period_msec', undef, ''],
	['ts_field', undef, ''], ['header_version', undef, ''], ['extract', 2, ''],
	['ts_rel', undef, '--extract 2'], ['ts_gmt', undef, '--extract 2'],
	['ts_loc', undef, '--extract 2'], ['ts_date', undef, '--extract 2 --ts_gmt'],
	['begin_msec', 500, '--extract 2'], ['end_msec', 500, '--extract 2'],
	['begin_gmt', '"2023/11/14 22:13:21.500"', '--extract 2'],
	['end_gmt', '"2023/11/14 22:13:21.500"', '--extract 2'],
	['begin_loc', '"2023/11/14 22:13:21.500"', '--extract 2'],
	['end_loc', '"2023/11/14 22:13:21.500"', '--extract 2'],
	['help', undef, ''], ['version', undef, '']);

# Every spelling of each 1.0 option: -NAME, --NAME, and each prefix that
# the 1.0 set held for that option alone, with - and --.  Each must do
# what --NAME does.
for my $tool ([$stats, $sample, \@stats10], [$extract, $stat, \@extract10]) {
	my ($prog, $input, $set) = @$tool;
	my @names = map { $_->[0] } @$set;
	my ($n, @bad) = (0);
	for my $o (@$set) {
		my ($name, $val, $base) = @$o;
		my $arg = defined $val ? " $val" : '';
		my ($rc0, $want, $err0) = run("TZ=UTC $prog $base --$name$arg $input");
		push @bad, "--$name fails: $err0" if $rc0 || $want eq '';
		my @sp = ("-$name");
		for my $l (1 .. length($name) - 1) {
			my $p = substr($name, 0, $l);
			push @sp, "--$p", "-$p" if (grep { index($_, $p) == 0 } @names) == 1;
		}
		for my $s (@sp) {
			my ($rc1, $got, $err1) = run("TZ=UTC $prog $base $s$arg $input");
			$n++;
			push @bad, "$s: rc $rc1 $err1" if $rc1 != $rc0 || $got ne $want;
		}
	}
	my $short = $prog =~ s@.*/@@r;
	is(join("\n", @bad), '', "$short: $n spellings of the 1.0 options do what the full names do");
}
($rc, $out) = run("TZ=UTC $stats -migrate -ts_loc -pid 10 $sample");
is($out, "22:13:20.200000000 1 0 1 10 alpha try_to_wake_up\n22:13:20.500000000 2 1 2 10 alpha detach_tasks\n" .
	 "22:13:20.900000000 0 2 0 10 alpha try_to_wake_up\n22:13:21.200000000 0 0 1 10 alpha try_to_wake_up\n",
   '-ts_loc, as the 1.0 help names it');
($rc, $out, my $err) = run("$stats --ts $sample");
ok($rc == 2 && $err =~ /ambiguous/ && ($err =~ tr/\n//) == 1, 'an ambiguous abbreviation is one line, exit 2');

# ---- migrate_extract: the rounded start, both wall clocks -------------------------------

($rc, $out) = run("TZ=XYZ-5:30 $extract --extract 4 --ts_gmt --ts_loc $stat");
is($out, "22:13:21.000 03:43:21.000 12.00\n22:13:21.250 03:43:21.250 0.00\n" .
	 "22:13:21.500 03:43:21.500 24.00\n22:13:21.750 03:43:21.750 24.00\n" .
	 "22:13:22.000 03:43:22.000 8.00\n",
   '--ts_gmt --ts_loc print both; 999600 us round to the next second');
($rc, $out) = run("TZ=UTC $extract --extract 4 --begin_gmt '2023/11/14 22:13:21.500' $stat");
is($out, "0.500 24.00\n0.750 24.00\n1.000 8.00\n", 'the wall-clock window uses the same rounded start');
(my $stat2 = do { local (@ARGV, $/) = ($stat); <> }) =~ s/999600/1499/;
my $s2 = write_file('s2.stat', $stat2);
($rc, $out) = run("TZ=UTC $extract --extract 2 --ts_gmt $s2");
like($out, qr/^22:13:20\.001 4\.00$/m, '1499 us round down to .001');
$stat2 =~ s/ 1499/ 1500/;
$s2 = write_file('s3.stat', $stat2);
($rc, $out) = run("TZ=UTC $extract --extract 2 --ts_gmt $s2");
like($out, qr/^22:13:20\.002 4\.00$/m, '1500 us round up to .002');
($rc, $out) = run("$extract --field_num try_to_wake_up/wake_affine $stat");
is($out, "3\n", 'a field name with a slash');
done_testing();
