#!/usr/bin/perl
# The analysis tools on the guest's real data agree with the kernel's own
# counts: over the stat's complete periods, migrate_stats' per-cause
# totals of the trace taken in the same window equal the stat's columns,
# and migrate_stats --period reproduces the stat's rows, column by column.
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my ($stat, $trace) = map { "$top/out/check/$_" } qw(stat stat_window_trace);
unless (-s $stat && -s $trace) {
	print "1..1\nnot ok 1 - the guest kept no stat and trace of one window in out/check\n";
	exit(1);
}
my %hdr;
my (@fields, @sum, $rows);
open(my $fh, '<', $stat) or die;
while (<$fh>) {
	if (/^# (\w+) (.*)$/) {
		$hdr{$1} = $2;
		push @fields, (split ' ', $2, 2)[1] if $1 eq 'field';
		next;
	}
	my @w = split;
	$sum[$_] += $w[$_ + 1] for 0 .. $#fields;
	$rows++;
}
close($fh);
ok($rows && $hdr{sched_clock}, "the stat has $rows periods and its sched_clock");
my $begin = hex($hdr{sched_clock});
my $end = $begin + $rows * $hdr{period_msec} * 1_000_000;
my $win = sprintf('--begin_ts 0x%x --end_ts 0x%x', $begin, $end);

my %got;
for (`$top/scripts/migrate_stats --stats $win $trace`) {
	$got{$1} //= $2 if m@^([\w/]+)\s+(\d+)\s@;	# the cause table comes first
}
for my $i (0 .. $#fields) {
	my $f = $fields[$i];
	my $name = $f eq 'migrate' ? 'total' : $f;
	is($got{$name} // 0, $sum[$i], "$f: migrate_stats counts the kernel's $sum[$i]");
}

# migrate_stats --period over the same window gives the stat's rows back
# (as rates per second: counts times 1000 / period_msec), every row and
# every column: the causes, migrate, and in a 1.2 stat every CAUSE/REASON
# field, which --period_reason names alike.
my $scale = 1000 / $hdr{period_msec};
my $reasons = grep { m@/@ } @fields;
my $cmd = "$top/scripts/migrate_stats --period $hdr{period_msec} --period_cause --period_all" .
	($reasons ? ' --period_reason' : '') . " $win $trace";
my @out = `$cmd`;
my @ours = map { /^# field (\d+) (.*)$/ ? [$2, $1] : () } @out;
my %col = map { $_->[0] => $_->[1] - 1 } @ours;
my @series = map { [split] } grep { !/^#/ } @out;
my @rows = map { [split] } grep { !/^#/ } do { open(my $s, '<', $stat) or die; <$s> };
# migrate_stats prints complete periods only: those that end before the
# trace's last line (the guest may stop the trace before the stat's end).
my $last = 0;
open(my $tf, '<', $trace) or die;
while (<$tf>) {
	$last = hex($1) if /^(0x[0-9a-f]+) /;
}
close($tf);
my $period_ns = $hdr{period_msec} * 1_000_000;
my $complete = int(($last - $begin) / $period_ns);
$complete = $rows if $complete > $rows;
ok($complete >= $rows - 2, "the trace covers all but at most the last 2 of the stat's $rows periods");
is(scalar(@series), $complete, "the $complete periods the trace completes compared");
splice(@rows, $complete);
for my $i (0 .. $#fields) {
	my $f = $fields[$i];
	my $c = $col{$f};
	my @want = map { sprintf('%.2f', $_->[$i + 1] * $scale) } @rows;
	my @got = map { defined $c ? $_->[$c] : 'absent' } @series;
	is_deeply(\@got, \@want, "$f: migrate_stats --period reproduces the stat's column row by row");
}
done_testing();
