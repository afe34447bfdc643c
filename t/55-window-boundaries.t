#!/usr/bin/perl
# migrate_stats' windows at their boundaries: events exactly on a begin
# or an end given as a mark, in seconds or as a timestamp; several begins
# and ends; --begin_sec and --end_sec rounded to the nanosecond; the
# window's duration and rates; the period series of a window (an event on
# a period's boundary, the last complete period, the header's wall clock
# at the window's start, --min_rate exactly met).  The trace is made here
# and every expected value is counted from its list of events.
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $stats = "$top/scripts/migrate_stats";

# Times in ns after T0, the first event.  Migrations every 50 ms from 0
# to 2000 ms; at 500 ms and 1500 ms a second migration follows the marks
# 1 and 2 of the same time; marks 3 and 4 at 250 and 1750 ms, with a
# rename and a fork; two migrations 1 ns apart at 1.000071271 s, whose
# --begin_sec and --end_sec only a rounded conversion separates.
my $T0 = 5_000_000_000;
my $MS = 1_000_000;
my @ev;		# [t, kind, line after the timestamp, value]
sub ev { push @ev, [@_] }
ev(0, 'start', '0 . . . start_sched_clock 1700000000 250000');
ev(0, 'start', '1 . . . start_sched_clock 1700000000 250100');
ev(0, 'name', '0 . . 10 5 : alpha');
ev(0, 'name', '0 . . 20 5 : beta');
for my $i (0 .. 40) {
	my $t = 50 * $i * $MS;
	my ($from, $to, $pid) = ($i % 3, ($i + 1) % 3, $i % 2 ? 20 : 10);
	ev(250 * $MS, 'mark', '1 . . 1 6 0x00000003', 3) if $i == 5;
	ev(250 * $MS, 'name', '2 . . 10 4 : alpha two') if $i == 5;
	ev(1000071270, 'mig', '2 0 2 20 1', [0, 2, 20]) if $i == 21;
	ev(1000071271, 'mig', '2 0 2 20 1', [0, 2, 20]) if $i == 21;
	ev(1750 * $MS, 'mark', '2 . . 1 6 0x00000004', 4) if $i == 35;
	ev(1750 * $MS, 'name', '1 . . 30 3 : gamma') if $i == 35;
	ev($t, 'mig', "$to $from $to $pid " . (1 + int($i / 2) % 2) . ' ' . $i % 2, [$from, $to, $pid]);
	if ($i == 10 || $i == 30) {
		ev($t, 'mark', '0 . . 1 6 0x0000000' . ($i == 10 ? 1 : 2), $i == 10 ? 1 : 2);
		ev($t, 'mig', "1 2 1 20 2 0", [2, 1, 20]);
	}
}
my $hdr = "# version 1.2.0\n# nr_cpus 3\n# ts_field 1\n# cause 1 a\n# cause 2 b\n# loc 3 copy_process\n" .
	"# loc 4 set_task_comm\n# loc 5 task_list\n# loc 6 mark\n# reason 1 r1\n";
my $trace = write_file('trace', $hdr . join('', map { sprintf("0x%016x %s\n", $T0 + $_->[0], $_->[2]) } @ev));
my %mark_at = map { ($ev[$_][3] => $_) } grep { $ev[$_][1] eq 'mark' } 0 .. $#ev;
my $last = $ev[-1][0];

# The events of a window: begin B and end E in ns (undef: none), or by
# position in the file (a begin mark's own line on, an end mark's line
# off).
sub window {
	my (%w) = @_;
	return grep {
		my ($i, $t) = ($_, $ev[$_][0]);
		(!defined $w{b} || $t >= $w{b}) && (!defined $w{e} || $t < $w{e}) &&
		(!defined $w{bm} || $i >= $mark_at{$w{bm}}) && (!defined $w{em} || $i < $mark_at{$w{em}})
	} 0 .. $#ev;
}

sub ts { sprintf('0x%016x', $T0 + $_[0]) }

# ---- which events a window keeps ---------------------------------------------------

sub migrations {
	my ($args) = @_;
	my ($rc, $out, $err) = run("$stats --migrate --ts_abs $args $trace");
	return "exit $rc: $err" if $rc;
	return join(',', map { my @w = split; hex($w[0]) - $T0 . " $w[2]>$w[3] $w[4]" } split /\n/, $out);
}
sub want_migrations {
	return join(',', map { "$ev[$_][0] $ev[$_][3][0]>$ev[$_][3][1] $ev[$_][3][2]" } grep { $ev[$_][1] eq 'mig' } @_);
}
my @windows = (
	['--begin_ts/--end_ts on two migrations', '--begin_ts ' . ts(250 * $MS) . ' --end_ts ' . ts(1750 * $MS),
	 b => 250 * $MS, e => 1750 * $MS],
	['--begin_sec/--end_sec on two migrations', '--begin_sec 0.25 --end_sec 1.75', b => 250 * $MS, e => 1750 * $MS],
	['marks: a migration of the begin mark\'s time before it is out, after it in',
	 '--begin_mark 1 --end_mark 2', bm => 1, em => 2],
	['--begin_ts at a begin mark\'s time: both migrations of that time are in', '--begin_ts ' . ts(500 * $MS),
	 b => 500 * $MS],
	['--end_ts at the end mark\'s time: both migrations of that time are out', '--end_ts ' . ts(1500 * $MS),
	 e => 1500 * $MS],
	['--begin_sec 1.000071271 rounded: the migration 1 ns before is out', '--begin_sec 1.000071271',
	 b => 1000071271],
	['--end_sec 1.000071271 rounded: the migration 1 ns before is in', '--end_sec 1.000071271',
	 e => 1000071271],
	['several begins: the latest (seconds over a timestamp)', '--begin_ts ' . ts(250 * $MS) . ' --begin_sec 0.5',
	 b => 500 * $MS],
	['several begins: the latest (a timestamp over a mark)', '--begin_mark 1 --begin_ts ' . ts(700 * $MS),
	 b => 700 * $MS],
	['several begins: the latest (a mark over seconds)', '--begin_sec 0.2 --begin_mark 1', bm => 1],
	['several ends: the first reached (seconds before a timestamp)', '--end_ts ' . ts(1600 * $MS) . ' --end_sec 1.2',
	 e => 1200 * $MS],
	['several ends: the first reached (a timestamp before a mark)', '--end_mark 2 --end_ts ' . ts(1400 * $MS),
	 e => 1400 * $MS],
	['several ends: a timestamp at the end mark\'s time ends the window first', '--end_mark 2 --end_ts ' . ts(1500 * $MS),
	 e => 1500 * $MS],
);
for my $w (@windows) {
	my ($name, $args, %w) = @$w;
	is(migrations($args), want_migrations(window(%w)), "window: $name");
}

# Marks and names on a boundary: in at the begin, out at the end.
my $w = '--begin_ts ' . ts(250 * $MS) . ' --end_ts ' . ts(1750 * $MS);
my ($rc, $out) = run("$stats --mark --ts_abs $w $trace");
is($out, join('', map { sprintf("%s %s\n", ts($ev[$_][0]), $ev[$_][2] =~ s/ \. \. (\d+) 6 / $1 /r) }
		  grep { $ev[$_][1] eq 'mark' } window(b => 250 * $MS, e => 1750 * $MS)),
   'marks: one at the begin is listed, one at the end is not');
($rc, $out) = run("$stats --mark --begin_mark 3 --end_mark 4 $trace");
like($out, qr/\A0\.000000000 1 1 0x00000003\n/, 'the begin mark itself opens the window, at 0 s');
unlike($out, qr/0x00000004/, 'the end mark is not in the window');
($rc, $out) = run("$stats --ps $w $trace");
is($out, "0.000000000 2 10 set_task_comm alpha two\n", 'names: a rename at the begin is listed, a fork at the end is not');

# ---- the window's length and rates ------------------------------------------------

sub duration {
	my ($args) = @_;
	my ($rc, $out, $err) = run("$stats --stats $args $trace");
	return $rc ? "exit $rc: $err" : join(' ', $out =~ /^duration_sec (\S+)\nmigrations (\d+) rate (\S+)$/m);
}
sub want_duration {
	my ($d, @in) = @_;
	my $n = grep { $ev[$_][1] eq 'mig' } @in;
	return sprintf('%.6f %d %s', $d / 1e9, $n, $d > 0 ? sprintf('%.2f', $n * 1e9 / $d) : '-');
}
is(duration($w), want_duration(1500 * $MS, window(b => 250 * $MS, e => 1750 * $MS)),
   'closed by an end: from the begin to the end');
is(duration('--begin_ts ' . ts(250 * $MS)), want_duration($last - 250 * $MS, window(b => 250 * $MS)),
   'not closed: from the begin to the last event');
is(duration('--begin_mark 1 --end_mark 2'), want_duration(1000 * $MS, window(bm => 1, em => 2)),
   'marks: from the begin mark to the end mark');
is(duration('--begin_ts ' . ts(250 * $MS) . ' --end_ts ' . ts(1730 * $MS)),
   want_duration(1480 * $MS, window(b => 250 * $MS, e => 1730 * $MS)),
   'an end between two events: to the end, not to the event that passed it');
is(duration('--begin_ts ' . ts(250 * $MS) . ' --end_ts ' . ts(550 * $MS)),
   want_duration(300 * $MS, window(b => 250 * $MS, e => 550 * $MS)), 'a window of 0.3 s has rates');
is(duration('--begin_ts ' . ts(700 * $MS) . ' --end_ts ' . ts(700 * $MS)), want_duration(0),
   'a window of no length: no migration, no rate');

# ---- periods of a window -------------------------------------------------------------

# The rows of --period P --period_all over [B, E) (E undef: to the last
# event): one per period that ended by then, TS relative to B, and the
# migrations per second.
sub want_rows {
	my ($p, $b, $e, $min) = @_;
	my $end = $e // $last;
	my @rows;
	for (my $k = 0; $b + ($k + 1) * $p <= $end; $k++) {
		my $n = grep { $ev[$_][1] eq 'mig' } window(b => $b + $k * $p, e => $b + ($k + 1) * $p);
		my $rate = $n * 1e9 / $p;
		my $ms = $k * $p / $MS;
		push @rows, sprintf('%d.%03d %.2f', int($ms / 1000), $ms % 1000, $rate)
			unless defined $min && $rate < $min;
	}
	return \@rows;
}
sub rows {
	my ($args) = @_;
	my ($rc, $out, $err) = run("$stats --period_all $args $trace");
	return ["exit $rc: $err"] if $rc;
	return [grep { !/^#/ } split /\n/, $out];
}
is_deeply(rows("--period 100 $w"), want_rows(100 * $MS, 250 * $MS, 1750 * $MS),
	  'periods of a window: a migration on a period\'s start counts in that period, to the window\'s end');
is_deeply(rows('--period 100 --begin_ts ' . ts(300 * $MS)), want_rows(100 * $MS, 300 * $MS, undef),
	  'the last event on a period\'s end: that period is complete and written');
is_deeply(rows('--period 100 --begin_sec 0.25'), want_rows(100 * $MS, 250 * $MS, undef),
	  'the last event inside a period: that period is not written');
is_deeply(rows("--period 100 --min_rate 30 $w"), want_rows(100 * $MS, 250 * $MS, 1750 * $MS, 30),
	  '--min_rate 30: periods of exactly 30 migrations/s are kept, of 20 not');
($rc, $out) = run("$stats --period 100 --period_all $w $trace");
like($out, qr/^# gettimeofday 1700000000 500000\n0\.000 /m,
     "the header's wall clock is the window's start (CPU 0's start clock plus 250 ms)");
done_testing();
