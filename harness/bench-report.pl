#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Turn the guest's bench.raw into the benchmark table: medians over the
# interleaved rounds, ratios to ftrace measured in the same run, and each
# target marked PASS or MISS.  The disabled cost (section 5) is judged
# from the machine code when HOOK-SITES, the table of
# harness/check-hook-sites.pl, is given and readable; the TCG timing of
# (c) against (e) stays for the record.  ICOUNT.RAW, the per-event part
# run again under QEMU's -icount (a guest nanosecond per guest
# instruction), gives exact instruction counts: the per-event targets are
# judged on them, and the TCG times stay for the record.
#
#   bench-report.pl BENCH.RAW HOST-DESCRIPTION [HOOK-SITES [ICOUNT.RAW]]
use strict;
use warnings;

my $P = $0;
$P =~ s@.*/@@g;
my ($raw, $host, $sites_file, $icount_raw) = @ARGV;
die "$P: usage: $P BENCH.RAW HOST-DESCRIPTION [HOOK-SITES [ICOUNT.RAW]]\n" unless defined $host;
open(my $fh, '<', $raw) or die "$P: $raw: $!\n";

my (%ev, %work, %migs, %read, %size, %stream, $info);
while (<$fh>) {
	my @w = split;
	next unless @w;
	if ($w[0] eq 'info') {
		$info = join(' ', @w[1 .. $#w]);
	} elsif ($w[0] eq 'event' && @w == 4) {
		push @{$ev{$w[1]}}, $w[2] / $w[3];
	} elsif ($w[0] eq 'work' && @w == 5) {
		push @{$work{$w[1]}{$w[2]}}, $w[3];
		$migs{$w[1]} = $w[4] if $w[1] eq 'affinity';
	} elsif ($w[0] eq 'read' && @w == 5) {
		push @{$read{$w[1]}}, $w[2] / ($w[4] || 1);
	} elsif ($w[0] eq 'size' && @w >= 3) {
		push @{$size{$w[1]}}, $w[2];
	} elsif ($w[0] eq 'stream' && @w >= 6) {
		$stream{$w[1]} = [@w[2 .. $#w]];
	}
}
close($fh);
die "$P: $raw holds no measurements\n" unless %ev && %work;

sub median {
	my @v = sort { $a <=> $b } @{$_[0] // []};
	return undef unless @v;
	return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

# The interquartile range: the run's noise, robust to a stray round.
sub iqr {
	my @v = sort { $a <=> $b } @{$_[0] // []};
	return 0 unless @v;
	return $v[int(3 * $#v / 4 + 0.5)] - $v[int($#v / 4 + 0.5)];
}

sub verdict {
	my ($ok) = @_;
	return $ok ? 'PASS' : 'MISS';
}

my $rounds = scalar(@{$ev{mt} // []});
my @out;
push @out, "migrate_trace_lite benchmark, " . `date -u '+%Y-%m-%d %H:%M UTC'` =~ s/\n//r;
push @out, "host: $host; guest: QEMU TCG, $info";
push @out, "medians of $rounds interleaved rounds; ratios are taken within this run";
push @out, '';

my %target = (mt => 0.15, mtpipe => 0.20, mtflight => 0.20, mstat => 0.10);
my %label = (mt => '(a) hook, mt tracing (with reasons)',
	     mtpipe => '(a2) hook, mt, trace_pipe reader draining',
	     mtflight => '(a3) hook, mt flight recorder recycling',
	     mstat => '(b) hook, mstat collecting',
	     off => '(c) hook, both off (static key)',
	     ftrace => '(d) sched_migrate_task, event on, no reader',
	     empty => '(e) empty loop',
	     clock => '(f) local_clock() alone',
	     mtclock => '(g) the hook\'s clock alone (TSC inline)');

# The per-event table of %$ev in UNIT, with the targets judged if $judge.
sub event_table {
	my ($ev, $unit, $judge) = @_;
	my $ft = median($ev->{ftrace});
	my @t = (sprintf('   %-44s %9s %9s  %s', 'variant', $unit, 'x ftrace', $judge ? 'target' : ''));
	for my $v (qw(mt mtpipe mtflight mstat off ftrace empty clock mtclock)) {
		my $m = median($ev->{$v});
		next unless defined $m;
		my $t = $judge && $target{$v}
			? sprintf('<= %.2f %s', $target{$v}, verdict($m / $ft <= $target{$v})) : '';
		push @t, sprintf('   %-44s %9.1f %9.3f  %s', $label{$v}, $m, $m / $ft, $t) =~ s/\s+$//r;
	}
	return @t;
}

my %icount;
if (defined $icount_raw && open(my $ih, '<', $icount_raw)) {
	while (<$ih>) {
		my @w = split;
		push @{$icount{$w[1]}}, $w[2] / $w[3] if @w == 4 && $w[0] eq 'event';
	}
	close($ih);
}
if (%icount && $icount{ftrace}) {
	push @out, '1. Per-event cost in the kernel: guest instructions per call (QEMU -icount, exact)';
	push @out, event_table(\%icount, 'insns', 1);
	push @out, '   TCG time of the same calls (ns; host-dependent and noisy, for the record):';
	push @out, event_table(\%ev, 'ns/event', 0);
} else {
	push @out, '1. Per-event cost in the kernel (ns per call, interrupts off)';
	push @out, event_table(\%ev, 'ns/event', 1);
}
my ($off, $empty) = (median($ev{off}), median($ev{empty}));
my $noise = iqr($ev{off}) + iqr($ev{empty});
push @out, '';
push @out, '2. Workloads (ms per run; throughput relative to no tracing)';
for my $w (qw(affinity pingpong)) {
	my $base = median($work{$w}{none});
	push @out, sprintf('   %-10s %-8s %10s %10s %12s', $w, 'config', 'ms', 'throughput',
			   $w eq 'affinity' ? 'ns/migration' : '');
	for my $c (qw(none mt mstat both ftrace)) {
		my $m = median($work{$w}{$c});
		my $extra = $w eq 'affinity' && $c ne 'none'
			? sprintf('%12.0f', ($m - $base) / $migs{affinity}) : '';
		push @out, sprintf('   %-10s %-8s %10.1f %10.3f %s', '', $c, $m / 1e6, $base / $m, $extra);
	}
}
my $aff = median($work{affinity}{none}) / median($work{affinity}{mt});
my $wnoise = iqr($work{affinity}{none}) / median($work{affinity}{none});
push @out, sprintf('   target: mt keeps >= 0.98 of the affinity throughput: %.3f %s',
		   $aff, verdict($aff >= 0.98));
push @out, sprintf('   run noise (interquartile range of the untraced runs): %.1f %% of a run;',
		   100 * $wnoise);
push @out, sprintf('   the hook costs (a) %.0f ns of a %.0f ns migration (%.2f %%): below that noise',
		   median($ev{mt}), median($work{affinity}{none}) / $migs{affinity},
		   100 * median($ev{mt}) * $migs{affinity} / median($work{affinity}{none}))
	if $wnoise > median($ev{mt}) * $migs{affinity} / median($work{affinity}{none});
push @out, sprintf('   (%d migrations per affinity run; ns/migration = extra time / migrations)',
		   $migs{affinity});
push @out, '';
my ($smt, $sft) = (median($size{mt}), median($size{ftrace}));
push @out, '3. Record size (bytes of buffer per migration event)';
push @out, sprintf('   mt %.1f B (%.0f per MiB), ftrace sched_migrate_task %.1f B (%.0f per MiB)',
		   $smt, 1048576 / $smt, $sft, 1048576 / $sft);
push @out, sprintf('   target: 16 bytes a migration (chunk headers included: <= 16.5), >= 2.7 x ftrace\'s per MiB: %.1f B, %.2f x %s',
		   $smt, $sft / $smt, verdict($smt <= 16.5 && $sft / $smt >= 2.7));
push @out, '';
my ($rmt, $rft) = (median($read{mt}), median($read{ftrace}));
push @out, '4. Read-out (ns per event line, same run, both files read once)';
push @out, sprintf('   migration_trace/trace %.0f ns, tracing/trace %.0f ns: %.1f x faster; target >= 2 %s',
		   $rmt, $rft, $rft / $rmt, verdict($rft / $rmt >= 2));
push @out, '';
# The machine code: every site a jump-label NOP calling its hook out of
# line, and nothing added to a fall-through path that is not explained.
my (%res, @sites);
if (defined $sites_file && open(my $sf, '<', $sites_file)) {
	while (<$sf>) {
		chomp;
		if (/^result: (.*)/) {
			%res = split ' ', $1;
		} elsif (/^(?:off:|except) /) {
			push @sites, $_;
		}
	}
	close($sf);
}
my $tcg = sprintf('%.2f ns versus %.2f ns per call, difference %.2f ns, noise (IQR) %.2f ns: %s',
		  $off, $empty, $off - $empty, $noise,
		  abs($off - $empty) <= $noise ? 'indistinguishable' : 'distinguishable');
push @out, '5. Disabled cost: both options off';
if (defined $res{sites} && @sites) {
	my $ok = $res{sites} > 0 && $res{nop} == $res{sites} && $res{hooked} == $res{sites} &&
		 $res{unexplained} == 0 && !$res{failed};
	# The functions that add, in short; their reasons are in the table.
	my (@short, @other);
	for (@sites) {
		if (/^except (\S+) (\S+): (\d+) added, (\d+) removed: (.*)$/) {
			push @short, "$2 +$3" . ($4 ? " -$4" : '') .
				($5 eq 'NOT EXPLAINED' ? ' (NOT EXPLAINED)' : '');
		} else {
			push @other, $_;
		}
	}
	push @out, '   machine code (make hook-sites: the "on" build against the "off" one):';
	push @out, map { "   $_" } @other;
	push @out, '   adding (reasons in out/hook-sites.txt): ' . join(', ', @short) if @short;
	push @out, sprintf('   target: every site a NOP, nothing added unexplained: %s', verdict($ok));
	push @out, "   (c) versus (e) under TCG, which emulates the NOP, for the record: $tcg";
} else {
	push @out, '   machine code: not checked (no hook-sites table; make hook-sites)';
	push @out, "   (c) hook versus (e) empty loop under TCG: $tcg " .
		verdict(abs($off - $empty) <= $noise);
}
# Streaming: the recorder with a reader the whole time, against cat of
# ftrace's trace_pipe over the same storm; the reader's CPU per event.
push @out, '';
push @out, '6. Streaming (an affinity storm read while it runs; reader CPU from /proc)';
if ($stream{mt} && $stream{ftrace}) {
	my ($n, $ticks, $events, $dropped, $over) = @{$stream{mt}};
	my ($fn, $fticks, $fevents, $foverrun) = @{$stream{ftrace}};
	my $ours = $events ? $ticks * 1e7 / $events : 0;
	my $theirs = $fevents ? $fticks * 1e7 / $fevents : 0;
	push @out, sprintf('   migrate_record (64 KiB buffers): %d events, %d dropped, %d overwritten; target 0 lost %s',
			   $events, $dropped, $over, verdict($dropped == 0 && $over == 0 && $events > 0));
	push @out, sprintf('   reader CPU: migration_trace/trace_pipe %.0f ns/event, tracing/trace_pipe %.0f ns/event (%d events, %d overrun)',
			   $ours, $theirs, $fevents, $foverrun);
	push @out, sprintf('   target: <= 0.5 x ftrace\'s reader: %.2f x %s', $theirs ? $ours / $theirs : 0,
			   verdict($theirs && $ours / $theirs <= 0.5));
} else {
	push @out, '   not measured (no stream lines in the raw data)';
}
print "$_\n" for @out;
