#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# make bench's section 9, the scale series: the scale.raw files of
# harness/guest/scale.sh, one guest each (4, 16 and 64 CPUs under
# -icount, and the 64-CPU storm without it), turned into one table of
# the costs by CPU count, the ratios, and each target's PASS or MISS.
# Under -icount a guest nanosecond is one guest instruction: the costs
# are instruction counts.
#
#   bench-scale.pl SCALE.RAW...
use strict;
use warnings;

my $P = $0;
$P =~ s@.*/@@g;
die "$P: usage: $P SCALE.RAW...\n" unless @ARGV;

# Per guest (by CPU count): its measurements.
my (%g, @storm, @mem, %topo, @missing);
for my $f (@ARGV) {
	my $fh;
	unless (open($fh, '<', $f)) {
		push @missing, $f =~ s@.*/(out/)@$1@r;
		next;
	}
	my ($m, $cpus);
	while (<$fh>) {
		my @w = split;
		next unless @w;
		$topo{$cpus} = $1 if /^# (node0 .*)$/ && $cpus;
		next unless $w[0] eq 'scale';
		if ($w[1] eq 'info' && @w == 5) {
			$cpus = $w[2];
			$m = $w[4] ? ($g{$w[2]} //= { possible => $w[3] }) : undef;
		} elsif ($w[1] eq 'event' && @w == 5 && $m) {
			$m->{event}{$w[2]} = $w[3] / $w[4];
		} elsif ($w[1] eq 'read' && @w == 6 && $m) {
			$m->{read}{$w[2]} = $w[3] / ($w[5] || 1);
			$m->{records}{$w[2]} = $w[5];
		} elsif ($w[1] eq 'stat' && @w == 7 && $m) {
			@{$m}{qw(stat stat_sent stat_cal stat_res)} = @w[2, 4, 5, 6];
		} elsif ($w[1] eq 'dump' && @w == 4 && $m) {
			$m->{dump} = $w[2] / ($w[3] || 1);
			$m->{dump_lines} = $w[3];
		} elsif ($w[1] eq 'mem' && @w == 7) {
			push @mem, [@w[2 .. 6]];
		} elsif ($w[1] eq 'storm' && @w == 7) {
			push @storm, [@w[2 .. 6]];
		}
	}
	close($fh);
}
unless (%g) {
	print "\n9. Scale: MISS: no -icount scale guest returned its results (missing: @missing)\n";
	exit 1;
}

sub verdict { return $_[0] ? 'PASS' : 'MISS'; }
sub log2 { return log($_[0]) / log(2); }

my @cpus = sort { $a <=> $b } keys %g;
my ($lo, $hi) = @cpus[0, -1];
my @s = ('', '9. Scale: the costs as the machine grows (instructions, -icount shift=0,sleep=off; one guest per CPU count)');
push @s, "   the $hi-CPU guest: $topo{$hi}" if $topo{$hi};
my $fmt = '   %-34s' . ' %10s' x @cpus . '   %s';
push @s, sprintf($fmt, 'CPUs', @cpus, "$hi/$lo");
my @verdicts;

# A row of VALUES by CPU count (undef: not measured), with the ratio of
# the largest guest's to the smallest's.
sub row {
	my ($name, $key, $digits) = @_;
	my @v = map { ref $key ? $key->($g{$_}) : $g{$_}{$key} } @cpus;
	my $r = defined $v[0] && defined $v[-1] && $v[0] ? sprintf('%.3f', $v[-1] / $v[0]) : '-';
	return sprintf($fmt, $name, (map { defined $_ ? sprintf("%.${digits}f", $_) : '-' } @v), $r);
}
# The ratio of the largest to the smallest of VALUES (all defined), or undef.
sub spread {
	my @v = grep { defined } @_;
	return undef unless @v == @_ && @v && !grep { $_ <= 0 } @v;
	my ($min, $max) = (sort { $a <=> $b } @v)[0, -1];
	return $max / $min;
}

push @s, row('mt hook, per event', sub { $_[0]{event}{mt} }, 1);
push @s, row('mstat hook, per event', sub { $_[0]{event}{mstat} }, 1);
push @s, row('empty loop, per call', sub { $_[0]{event}{empty} }, 1);
push @s, row('cat trace, per record', sub { $_[0]{read}{cat} }, 1);
push @s, row('trace_pipe, per record', sub { $_[0]{read}{pipe} }, 1);
push @s, row('  records read', sub { $_[0]{records}{cat} }, 0);
push @s, row('stat read, per read', 'stat', 0);
$g{$_}{cpus} = $_ for @cpus;
# The slope: what each CPU beyond the smallest guest's adds to a read.
push @s, row('  per CPU more than at ' . $lo, sub { $_[0]{cpus} > $lo && defined $_[0]{stat} &&
	defined $g{$lo}{stat} ? ($_[0]{stat} - $g{$lo}{stat}) / ($_[0]{cpus} - $lo) : undef }, 1);
push @s, row('stat read: IPIs the reader sent', 'stat_sent', 0);
push @s, row('  CAL, RES on CPUs 1.. meanwhile', sub { defined $_[0]{stat_cal} ?
	$_[0]{stat_cal} + $_[0]{stat_res} : undef }, 0);
push @s, row('dump merge, per record', 'dump', 1);
push @s, row('  records merged', 'dump_lines', 0);

# The targets.
my @t;
for my $h (qw(mt mstat)) {
	my ($a, $b) = map { $g{$_}{event}{$h} } $lo, $hi;
	my $ok = defined $a && defined $b && $a > 0 && abs($b / $a - 1) <= 0.05 + 1e-9;
	push @t, sprintf('target: the %s hook costs the same at %d and %d CPUs, within 5 %%: %s x %s',
			 $h, $lo, $hi, defined $a && defined $b && $a ? sprintf('%.3f', $b / $a) : '?', verdict($ok));
}
my $cs = spread(map { $g{$_}{read}{cat} } @cpus);
push @t, sprintf('target: cat trace per record at %s CPUs within 1.5 x of each other: %s x %s',
		 join(', ', @cpus), defined $cs ? sprintf('%.3f', $cs) : '?', verdict(defined $cs && $cs <= 1.5));
my @pipe;
my $pipe_ok = @cpus > 1;
for my $n (@cpus[1 .. $#cpus]) {
	my ($a, $b) = map { $g{$_}{read}{pipe} } $lo, $n;
	my $r = defined $a && defined $b && $a ? $b / $a : undef;
	my $lim = log2($n) / log2($lo);
	$pipe_ok &&= defined $r && $r <= $lim;
	push @pipe, sprintf('%d: %s (log2 %.2f)', $n, defined $r ? sprintf('%.3f', $r) : '?', $lim);
}
push @t, sprintf('target: trace_pipe per record grows no faster than log2(CPUs), against %d: %s %s',
		 $lo, join(', ', @pipe), verdict($pipe_ok));
my $stat_ok = @cpus > 1;
my @st;
for my $n (@cpus[1 .. $#cpus]) {
	my ($a, $b) = map { $g{$_}{stat} } $lo, $n;
	my $r = defined $a && defined $b && $a ? $b / $a : undef;
	$stat_ok &&= defined $r && $r <= $n / $lo;
	push @st, sprintf('%d: %s (CPUs %.0f)', $n, defined $r ? sprintf('%.2f', $r) : '?', $n / $lo);
}
push @t, sprintf('target: a stat read costs O(CPUs), against %d: %s %s', $lo, join(', ', @st), verdict($stat_ok));
my @sent = map { $g{$_}{stat_sent} } @cpus;
push @t, sprintf('target: a stat read sends no IPI to the idle CPUs: %s sent %s',
		 join(', ', map { $_ // '?' } @sent), verdict(!grep { !defined || $_ } @sent));
my $ds = spread(map { $g{$_}{dump} } @cpus);
push @t, sprintf('target: the dump\'s time per record flat (within 1.5 x) from %d to %d CPUs: %s x %s',
		 $lo, $hi, defined $ds ? sprintf('%.3f', $ds) : '?', verdict(defined $ds && $ds <= 1.5));

# Memory: each start took its online CPUs x buffer_size_kb (within 10 %,
# against free memory), one buffer per online CPU, shown with more
# possible CPUs than online ones.
if (@mem) {
	push @s, '', sprintf('   %-7s %-9s %-15s %-12s %-12s %s', 'online', 'possible', 'buffer_size_kb',
			     'took KiB', 'x online*kb', 'buffer_cpus');
	my ($ok, $shown) = (1, 0);
	for (@mem) {
		my ($on, $pos, $kb, $took, $bc) = @$_;
		my $r = $took / ($on * $kb);
		$ok &&= $r >= 0.9 && $r <= 1.1 && $bc == $on;
		$shown ||= $pos > $on;
		push @s, sprintf('   %-7d %-9d %-15d %-12d %-12.3f %d', $on, $pos, $kb, $took, $r, $bc);
	}
	push @t, sprintf('target: memory follows online CPUs x buffer_size_kb (within 10 %%), with more possible than online: %s',
			 verdict($ok && $shown) . ($shown ? '' : ' (no guest had more possible CPUs than online)'));
} else {
	push @t, 'target: memory follows online CPUs x buffer_size_kb: MISS (not measured)';
}

# The storm: each rate read by our trace_pipe and by ftrace's.
if (@storm) {
	my %by;
	$by{$_->[1]}{$_->[0]} = $_ for @storm;
	push @s, '', "   storm on $hi CPUs (TCG, not -icount), one trace_pipe reader, 64 KiB buffers:",
		sprintf('   %-6s %-8s %10s %10s %10s %8s', 'procs', 'reader', 'moves', 'events', 'lost', 'lost %');
	my ($le, $zero, $clean, $rates) = (1, 1, 0, 0);
	for my $p (sort { $b <=> $a } keys %by) {
		for my $t (qw(mt ftrace)) {
			my $r = $by{$p}{$t} or next;
			my ($n, $ev, $lost) = @{$r}[2 .. 4];
			push @s, sprintf('   %-6d %-8s %10d %10d %10d %8.2f', $p, $t, $n, $ev, $lost,
					 $ev + $lost ? 100 * $lost / ($ev + $lost) : 0);
		}
		my ($m, $f) = @{$by{$p}}{qw(mt ftrace)};
		next unless $m && $f;
		$rates++;
		push @s, sprintf('   %-6d the storm made %.2f x the moves under mt that it made under ftrace', $p,
				 $m->[2] / ($f->[2] || 1));
		my ($ml, $fl) = map { $_->[4] / (($_->[3] + $_->[4]) || 1) } $m, $f;
		$le &&= $ml <= $fl;
		if ($f->[4] == 0) {
			$clean++;
			$zero &&= $m->[4] == 0;
		}
	}
	push @t, sprintf('target: the storm\'s loss on %d CPUs at most ftrace\'s, at every rate: %s', $hi, verdict($le));
	push @t, sprintf('target: no loss at the rate ftrace keeps without loss: %s', $clean ?
			 verdict($zero) : 'MISS (no rate measured at which ftrace lost nothing)');
	push @t, 'note: ftrace lost nothing at any rate measured: the loss targets do not tell the two',
		'  apart here; the moves each storm made under each reader show the readers\' cost instead'
		if $rates && $clean == $rates;
} else {
	push @t, 'target: the storm\'s loss at most ftrace\'s: MISS (not measured)';
}
push @t, "MISS: these guests returned no results: @missing" if @missing;
push @s, '', map { "   $_" } @t;
push @s, '   per event: the benchmark\'s hook calls on CPU 1; read-out: the same records spread',
	'   over every CPU, read whole by one reader; stat: 20 reads on CPU 0, the others idle;',
	'   dump: the merge of the newest 64 records of every CPU (its printing costs the same',
	'   per record whatever the CPUs); see doc/benchmark.md, "The scale series".';
print "$_\n" for @s;
