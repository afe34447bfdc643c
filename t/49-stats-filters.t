#!/usr/bin/perl
# migrate_stats' filters and clocks at their edges, on traces made here
# whose answers are counted from their event lists: --reason and
# --reason_exclude by name and as CAUSE/REASON; --cpu_event with --ps,
# --mark and --migrate; marks given in decimal, octal and hex; the
# largest values the options take and the first they refuse; the start
# clocks (a CPU's first wins, a CPU without one takes the lowest CPU's,
# --consistency's offsets).
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
my $hdr = "# version 1.2.0\n# nr_cpus 4\n# ts_field 1\n# cause 1 a\n# cause 2 b\n# loc 3 copy_process\n" .
	"# loc 4 set_task_comm\n# loc 5 task_list\n# loc 6 mark\n# reason 1 r1\n# reason 2 r2\n";
sub line { sprintf("0x%016x %s\n", 1_000_000_000 + $_[0] * 1000, $_[1]) }

# ---- reasons and CPUs ------------------------------------------------------------------

# Every cause with every reason (0 = none), from and to every pair of
# CPUs in turn, logged on the CPU of arrival; marks and names on every CPU.
my (@mig, $b);
my $t = 0;
$b .= line($t, "$_ . . " . (50 + $_) . " 5 : task$_") for 0 .. 3;
for my $i (0 .. 47) {
	my ($c, $r) = (1 + $i % 2, int($i / 2) % 3);
	my $f = int($i / 3) % 4;
	my $to = ($f + 1 + $i % 3) % 4;
	push @mig, { t => ++$t, cpu => $to, from => $f, to => $to, pid => 50 + $i % 4,
		     cause => ('', 'a', 'b')[$c], reason => ('none', 'r1', 'r2')[$r] };
	$b .= line($t, "$to $f $to " . (50 + $i % 4) . " $c" . ($r ? " $r" : ''));
	$b .= line(++$t, "$f . . 7 6 0x" . sprintf('%08x', 100 + $i)) if $i % 5 == 0;
	$b .= line(++$t, "$to . . " . (50 + $i % 4) . " 4 : renamed$i") if $i % 7 == 0;
}
my $tr = write_file('filters', $hdr . $b);

sub kept {
	my ($args) = @_;
	my ($rc, $out, $err) = run("$stats --migrate --ts_abs $args $tr");
	return "exit $rc: $err" if $rc;
	return join(',', map { hex((split)[0]) } split /\n/, $out);
}
sub want { join(',', map { 1_000_000_000 + $_->{t} * 1000 } grep { $_[0]->($_) } @mig) }
for my $f (['--reason r1', sub { $_[0]{reason} eq 'r1' }],
	   ['--reason none', sub { $_[0]{reason} eq 'none' }],
	   ['--reason b/r2', sub { "$_[0]{cause}/$_[0]{reason}" eq 'b/r2' }],
	   ['--reason a/none --reason b/r1', sub { "$_[0]{cause}/$_[0]{reason}" =~ m@^(a/none|b/r1)$@ }],
	   ['--reason_exclude r2', sub { $_[0]{reason} ne 'r2' }],
	   ['--reason_exclude a/r1', sub { "$_[0]{cause}/$_[0]{reason}" ne 'a/r1' }],
	   ['--reason_exclude b/none --reason_exclude r1', sub { "$_[0]{cause}/$_[0]{reason}" ne 'b/none' && $_[0]{reason} ne 'r1' }],
	   ['--reason r1 --reason_exclude b/r1', sub { "$_[0]{cause}/$_[0]{reason}" eq 'a/r1' }],
	   ['--cause a --reason_exclude a/r2', sub { $_[0]{cause} eq 'a' && $_[0]{reason} ne 'r2' }],
	   ['--cpu_event 2', sub { $_[0]{cpu} == 2 }],
	   ['--cpu_event_exclude 2 --cpu_event_exclude 3', sub { $_[0]{cpu} < 2 }],
	   ['--cpu_from 3 --cpu_to_exclude 0', sub { $_[0]{from} == 3 && $_[0]{to} != 0 }]) {
	is(kept($f->[0]), want($f->[1]), "$f->[0]: the migrations it names");
}

# --cpu_event applies to every listing: marks and names logged on the CPU.
sub triples {
	my ($fn, @v) = @_;
	my @t;
	push @t, $fn->(splice(@v, 0, 3)) while @v;
	return @t;
}
my @marks = triples(sub { [hex($_[0]), $_[1], hex($_[2])] }, $b =~ /^(0x\S+) (\d) \. \. 7 6 (0x\S+)$/mg);
my ($rc, $out) = run("$stats --mark --ts_abs --cpu_event 1 $tr");
is($out, join('', map { sprintf("0x%016x 1 7 0x%08x\n", $_->[0], $_->[2]) } grep { $_->[1] == 1 } @marks),
   '--mark --cpu_event 1: the marks logged on CPU 1 only');
($rc, $out) = run("$stats --mark_decimal --cpu_event_exclude 0 --cpu_event_exclude 1 $tr");
is(join(',', map { (split)[3] } split /\n/, $out), join(',', map { $_->[2] } grep { $_->[1] >= 2 } @marks),
   '--mark_decimal --cpu_event_exclude: the marks of the other CPUs');
my @names = triples(sub { [@_] }, $b =~ /^\S+ (\d) \. \. (\d+) [45] : (.*)$/mg);
($rc, $out) = run("$stats --ps --cpu_event 3 $tr");
is(join(',', map { join(' ', (split)[1, 2, 4]) } split /\n/, $out),
   join(',', map { "@$_" } grep { $_->[0] == 3 } @names), '--ps --cpu_event 3: the names logged on CPU 3 only');

# ---- marks in decimal, octal and hex -------------------------------------------------

# Marks 8, 10 and 16 in turn, a migration after each.
my $mk = write_file('marks', $hdr . line(0, '0 1 0 5 1') . line(1, '0 . . 1 6 0x00000008') . line(2, '0 1 0 6 1') .
		    line(3, '0 . . 1 6 0x0000000a') . line(4, '0 1 0 7 1') . line(5, '0 . . 1 6 0x00000010') .
		    line(6, '0 1 0 8 1'));
for my $m (['010', 8, 6], ['10', 10, 7], ['0x10', 16, 8], ['0X0A', 10, 7], ['8', 8, 6]) {
	($rc, $out) = run("$stats --migrate --begin_mark $m->[0] $mk");
	like($out, qr/\A\S+ 0 1 0 $m->[2] /, "--begin_mark $m->[0] is mark $m->[1]");
}

# ---- the largest values the options take ----------------------------------------------

for my $c (['--cpu_from 8191 --stats', 0], ['--cpu_from 8192 --stats', 2], ['--max_cpu 8191 --stats', 0],
	   ['--max_cpu 8192 --stats', 2], ['--period 86400000 --period_all', 0],
	   ['--period 86400001 --period_all', 2], ['--begin_sec 0.123456789 --stats', 0],
	   ['--begin_sec 0.1234567891 --stats', 2], ['--pid 999999999999999999 --stats', 0],
	   ['--begin_mark 18446744073709551615 --stats', 0], ['--begin_mark 18446744073709551616 --stats', 2],
	   ['--begin_mark 01777777777777777777777 --stats', 0], ['--begin_mark 02000000000000000000000 --stats', 2]) {
	my ($rc, $out, $err) = run("$stats $c->[0] $mk");
	is($rc, $c->[1], "$c->[0]: " . ($c->[1] ? 'refused' : 'taken')) or diag($err);
}

# ---- start clocks ----------------------------------------------------------------------

# CPU 2's first start clock says 1700000000.000000 s, a second one a
# second later; CPU 1's (logged 500 ns later) 1700000000.000100; CPU 3 has
# none.
my $sc = write_file('clocks', $hdr . line(0, '2 . . . start_sched_clock 1700000000 0') .
		    sprintf("0x%016x 1 . . . start_sched_clock 1700000000 100\n", 1_000_000_500) .
		    line(1, '2 . . . start_sched_clock 1700000001 0') . line(2, '3 0 3 9 1') . line(3, '2 3 2 9 1'));
($rc, $out) = run("TZ=UTC $stats --migrate --ts_gmt $sc");
is($out, "22:13:20.000101500 3 0 3 9 ? a none\n22:13:20.000003000 2 3 2 9 ? a none\n",
   "--ts_gmt: CPU 3 without a start clock takes the lowest CPU's (1), CPU 2 its first");
# A start clock in the last second of the year 9999: an event within it
# has a wall clock, one a second later has none.
my $end = write_file('9999', $hdr . line(0, '1 . . . start_sched_clock 253402300799 0') . line(999_999, '1 0 1 9 1'));
($rc, $out, my $err) = run("TZ=UTC $stats --migrate --ts_gmt --ts_date $end");
is("$rc $out", "0 9999/12/31 23:59:59.999999000 1 0 1 9 ? a none\n", 'the last microsecond of 9999 has a wall clock');
$end = write_file('10000', $hdr . line(0, '1 . . . start_sched_clock 253402300799 0') . line(1_000_000, '1 0 1 9 1'));
($rc, $out, $err) = run("TZ=UTC $stats --migrate --ts_gmt $end");
ok($rc == 2 && $err =~ /outside the years 1970 to 9999/, 'the year 10000 has none: one line, exit 2') or diag($err);
($rc, $out) = run("$stats --consistency $sc");
is($out, sprintf("%5s %15s %15s\n%5d %15d %15d\n%5d %15d %15d\nts_spread_ns 500\nwall_spread_us 100\n",
		 'cpu', 'ts_offset_ns', 'wall_offset_us', 1, 500, 100, 2, 0, 0),
   '--consistency: offsets from the earliest clock and wall clock, per CPU');
done_testing();
