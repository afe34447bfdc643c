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

my (%ev, %work, %migs, %read, %size, %stream, %peer, %cap, $info);
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
	} elsif ($w[0] eq 'peer' && @w == 6) {
		# peer NAME FIRED RECEIVED LOST SECONDS-TO-ATTACH, a round each
		push @{$peer{$w[1]}}, [@w[2 .. 5]];
	} elsif ($w[0] eq 'peer' && @w == 3) {
		push @{$peer{$w[1]}}, ['failed'];
	} elsif ($w[0] =~ /^cap(-fork|-marks)?$/) {
		# cap NAME MOVES SAME-AS-FTRACE SAME-ORDER LOST; cap-fork N;
		# cap-marks MT TRACE-CMD
		$cap{$w[0] eq 'cap' ? $w[1] : $w[0]} = [@w[($w[0] eq 'cap' ? 2 : 1) .. $#w]];
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

my %target = (mt => 0.17, mtpipe => 0.20, mtflight => 0.20, mtreject => 0.05, mstat => 0.10);
my %label = (mt => '(a) hook, mt tracing (with reasons)',
	     mtpipe => '(a2) hook, mt, trace_pipe reader draining',
	     mtflight => '(a3) hook, mt flight recorder recycling',
	     mtreject => '(a4) hook, mt, a filter that rejects every move',
	     mtpid => '(a5) hook, mt, a pid filter that selects the task',
	     mt2 => '(a6) hook, mt and an instance, both recording',
	     mtinst => '(a7) hook, an instance alone, mt off',
	     mtinst2 => '(a8) hook, two instances, mt off',
	     mstat => '(b) hook, mstat collecting',
	     off => '(c) hook, both off (static key)',
	     ftrace => '(d) sched_migrate_task, event on, no reader',
	     empty => '(e) empty loop',
	     clock => '(f) local_clock() alone',
	     evftrace => '(g) sched_migrate_reason, fired by the hook');

# The per-event table of %$ev in UNIT, with the targets judged if $judge.
sub event_table {
	my ($ev, $unit, $judge) = @_;
	my $ft = median($ev->{ftrace});
	my @t = (sprintf('   %-44s %9s %9s  %s', 'variant', $unit, 'x ftrace', $judge ? 'target' : ''));
	for my $v (qw(mt mtpipe mtflight mtreject mtpid mt2 mtinst mtinst2 mstat off ftrace empty clock
		      evftrace)) {
		my $m = median($ev->{$v});
		next unless defined $m;
		my $t = $judge && $target{$v}
			? sprintf('<= %.2f %s', $target{$v}, verdict($m / $ft <= $target{$v})) : '';
		# Two traces at once: under twice one trace's cost.  The top
		# trace alone has the hooks' inline path, which a second
		# trace leaves: (a6) against (a) says what that costs, (a8)
		# against (a7) what a second trace adds on the same path.
		my %one = (mt2 => 'mt', mtinst2 => 'mtinst');
		my %name = (mt => '(a)', mtinst => '(a7)');
		$t = sprintf('< 2 x %s: %.2f x %s', $name{$one{$v}}, $m / median($ev->{$one{$v}}),
			     verdict($m < 2 * median($ev->{$one{$v}})))
			if $judge && $one{$v} && defined median($ev->{$one{$v}});
		push @t, sprintf('   %-44s %9.1f %9.3f  %s', $label{$v}, $m, $m / $ft, $t) =~ s/\s+$//r;
	}
	return @t;
}

# The peers (section 7), as bench.sh names them.
my @peers = qw(tracecmd perf btcount btprint rperf);
my %peer_label = (ftrace => 'ftrace sched_migrate_task, no reader',
		  tracecmd => 'trace-cmd record -e sched_migrate_task',
		  perf => 'perf record -e sched:sched_migrate_task -a',
		  btcount => 'bpftrace, count by CPU pair (per-CPU map)',
		  btprint => 'bpftrace, printf of every event',
		  evftrace => 'ftrace sched_migrate_reason, no reader (g)',
		  rperf => 'perf record -e sched:sched_migrate_reason -a',
		  mt => 'mt trace (a)', mtpipe => 'mt trace, trace_pipe reader (a2)',
		  mstat => 'mstat (b)');
# The rows that record per-event data (1, 2, 3, 5): our trace's targets.
my @per_event = qw(ftrace tracecmd perf btprint);

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
	for my $c (qw(none mt mstat both ftrace), grep { $work{$w}{$_} } @peers) {
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
push @out, peers_section(%icount ? \%icount : \%ev, %icount ? 'insns' : 'ns') if grep { $ev{$_} } @peers;
push @out, capabilities() if %cap;
print "$_\n" for @out;

# Section 7: each peer's per-event cost against ftrace's and the cheapest
# per-event peer, in UNIT (instructions when the -icount run is there),
# TCG's ns beside; what each received; the targets.
sub peers_section {
	my ($e, $unit) = @_;
	my @s = ('', '7. Peers: the same tracepoint, each tool attached as its documentation shows (same runs)');
	my $ft = median($e->{ftrace});
	my ($cheap) = sort { median($e->{$a}) <=> median($e->{$b}) } grep { $e->{$_} } @per_event;
	my $cm = median($e->{$cheap});
	push @s, sprintf('   %-3s %-44s %8s %8s %8s %9s %6s  %s', 'row', 'tool', $unit, 'x ftrace',
			 'x peer', 'TCG ns', 'IQR %', 'received/fired, lost, attach s');
	my $row = 0;
	my %rowno = (ftrace => 1, tracecmd => 2, perf => 3, btcount => 4, btprint => 5, mt => 6,
		     mtpipe => 6, mstat => 7, evftrace => 8, rperf => 9);
	for my $v (qw(ftrace tracecmd perf btcount btprint mt mtpipe mstat evftrace rperf)) {
		my $m = median($e->{$v});
		next unless defined $m;
		my $tcg = median($ev{$v});
		my $noise = $tcg ? 100 * iqr($ev{$v}) / $tcg : 0;
		my $recv = '';
		if (my $r = $peer{$v}) {
			my @ok = grep { @$_ == 4 } @$r;
			my $all = grep { $_->[1] >= $_->[0] } @ok;
			my ($f, $g, $l) = (0, 0, 0);
			for (@ok) { $f += $_->[0]; $g += $_->[1]; $l += $_->[2]; }
			$recv = sprintf('%d/%d (%d of %d rounds all), lost %d, %.0f s', $g, $f, $all,
					scalar(@$r), $l, median([map { $_->[3] } @ok]) // 0);
		}
		push @s, sprintf('   %-3s %-44s %8.1f %8.3f %8.3f %9.1f %6.1f  %s', $rowno{$v}, $peer_label{$v},
				 $m, $m / $ft, $m / $cm, $tcg // 0, $noise, $recv) =~ s/\s+$//r;
	}
	my ($mt, $ms, $bc) = (median($e->{mt}), median($e->{mstat}), median($e->{btcount}));
	push @s, "   x peer: against the cheapest per-event peer (rows 1, 2, 3, 5), here $peer_label{$cheap};";
	push @s, '   received: the events of the firing shell that the tool reported, against the calls fired';
	push @s, "   (bpftrace's count: its CPU pair 1 -> 0 after the calls), summed over the rounds.";
	push @s, sprintf('   target: mt trace costs less than every per-event peer: %.1f < %.1f %s',
			 $mt, $cm, verdict($mt < $cm));
	push @s, sprintf('   aim: mt trace <= 0.5 x the cheapest per-event peer: %.3f x %s', $mt / $cm,
			 verdict($mt <= 0.5 * $cm));
	push @s, sprintf('   target: mstat costs less than bpftrace\'s count: %.1f < %.1f (%.3f x) %s',
			 $ms, $bc, $ms / $bc, verdict($ms < $bc)) if defined $bc && defined $ms;
	# The event with the why under the same tool as sched_migrate_task.
	my @why = map { my ($r, $t) = @$_;
			defined median($e->{$r}) && defined median($e->{$t})
			? sprintf('%s %.1f against %.1f (%.2f x)', $r eq 'evftrace' ? 'ftrace' : 'perf',
				  median($e->{$r}), median($e->{$t}), median($e->{$r}) / median($e->{$t}))
			: () } ([evftrace => 'ftrace'], [rperf => 'perf']);
	push @s, '   rows 8, 9: sched_migrate_reason, fired by the hook (mt and mstat off), against',
		'   sched_migrate_task under the same tool: ' . join(', ', @why) if @why;
	# Attached: each round, the tool reported events of the firing shell.
	# Whether it kept all of them is the tool's own business: reported.
	if (%peer) {
		my @off = grep { grep { @$_ != 4 || !$_->[1] } @{$peer{$_} // []} } @peers;
		my @all = map { my $r = $peer{$_} // [];
				sprintf('%s %d of %d', $_, scalar(grep { @$_ == 4 && $_->[1] >= $_->[0] } @$r),
					scalar(@$r)) } grep { $peer{$_} } @peers;
		push @s, '   every peer attached in every round (it received events of the firing shell): ' .
			(@off ? "MISS (@off)" : 'PASS');
		push @s, '   rounds in which a peer received every event fired: ' . join(', ', @all);
	}
	return @s;
}

# Section 8: what each tool tells about a migration; "*" marks a cell
# checked in this run (below the table), "!" one whose check failed.
sub capabilities {
	my %c = %cap;
	my $fork = $c{'cap-fork'}[0] // 0;
	my ($mtmarks, $tcmarks) = @{$c{'cap-marks'} // [0, 0]};
	my $ref = $c{ftrace};
	# Same moves as ftrace, task by task (MOVES SAME SAME-ORDER LOST).
	my %same = map { $_ => $c{$_} && $c{$_}[1] } qw(ftrace tracecmd perf btprint mt btcount);
	my $nofork = $fork > 0 && $same{mt};
	my $mark = sub { my ($ok, $text) = @_; return $text . ($ok ? '*' : '!'); };
	my @tools = qw(ftrace tracecmd perf btcount btprint mt mstat);
	my @rows = (
		['from/to CPU, pid', map({ $mark->($same{$_}, 'yes') } qw(ftrace tracecmd perf)),
		 $mark->($same{btcount}, 'pair'), $mark->($same{btprint}, 'yes'), $mark->($same{mt}, 'yes'),
		 'counts'],
		['fork placement', map({ $mark->($nofork && $same{$_}, 'no') } qw(ftrace tracecmd perf btcount btprint)),
		 $mark->($fork > 0, 'yes'), 'yes'],
		['cause, reason', 'no', 'no', 'no', 'no', 'no', 'yes', 'yes'],
		['marks', 'marker', $mark->($tcmarks > 0, 'marker'), 'no', 'no', 'no', $mark->($mtmarks >= 2, 'yes'), 'no'],
		['flight recorder', 'yes', 'yes', 'yes', 'no', 'no', 'yes', '-'],
		['per-period counters', 'no', 'no', 'stat -I', 'interval', 'no', 'tools', 'yes'],
		['loss accounting', map({ $mark->($c{$_} && defined $c{$_}[3], 'yes') } qw(ftrace tracecmd perf)),
		 '-', $mark->($c{btprint} && defined $c{btprint}[3], 'yes'), $mark->($c{mt} && defined $c{mt}[3], 'yes'), '-'],
		['time order across CPUs', map({ $mark->($c{$_} && $c{$_}[2], 'yes') } qw(ftrace tracecmd perf)),
		 '-', 'no' . ($c{btprint} && !$c{btprint}[2] ? '*' : ''), $mark->($c{mt} && $c{mt}[2], 'yes'), '-'],
		['analysis', 'no', 'no', 'per task', 'matrix', 'no', 'all', 'series'],
	);
	my @s = ('', '8. What each tool tells about a migration ("*" checked in this run, "!" its check failed)');
	my $fmt = '   %-24s' . ' %-9s' x @tools;
	push @s, sprintf($fmt, 'capability', qw(ftrace trace-cmd perf bt-count bt-print mt mstat));
	push @s, sprintf($fmt, @$_) =~ s/\s+$//r for @rows;
	push @s, '   checked: every peer attached at once, a reference ftrace instance and mt around forks,',
		'   an affinity hop between two marks and a trace_marker line; the moves of the tasks created',
		'   in the window, task by task:';
	for my $t (qw(ftrace tracecmd perf btprint mt)) {
		next unless $c{$t};
		my ($n, $set, $order, $lost) = @{$c{$t}};
		push @s, sprintf('     %-9s %5d moves, %s ftrace\'s%s, lost %s', $t, $n,
				 $set ? 'the same as' : 'NOT the same as',
				 $order ? ', in the same order' : ', not in its order', $lost // '?');
	}
	push @s, sprintf('     %-9s %5d events by CPU pair, %s', 'bt-count', $c{btcount}[0],
			 $c{btcount}[1] ? 'each pair at least ftrace\'s count (no pid to compare by)' :
			 'a pair BELOW ftrace\'s count') if $c{btcount};
	push @s, sprintf('     fork placements: mt %d (wake_up_new_task), in no peer: their moves equal mt\'s other moves: %s',
			 $fork, verdict($nofork));
	push @s, sprintf('     marks: mt %d, trace-cmd %d trace_marker line(s)', $mtmarks, $tcmarks);
	push @s, '   not checked here: cause and reason (the event has no such field; mt_reasons tests ours),',
		'   flight recorders (mt_flight), per-period counters (mt_stat), the analyses (t/30-t/43);',
		'   marker: ftrace\'s trace_marker; stat -I: perf stat counts per interval; interval: a',
		'   bpftrace interval probe; tools: migrate_stats --period; all: migrate_stats\' matrix, per',
		'   task, topology classes, ping-pong; series: stat rows per cause and reason;',
		'   bt-print\'s order: per-CPU buffers read as polled, no time in the one-liner: not',
		'   guaranteed, whatever a slow workload\'s order in this run;',
		'   sched_migrate_reason (rows 8 and 9 of section 7) gives every tool the cause and reason:',
		'   make check\'s peers guest checks their counts against mt\'s (t/25).';
	return @s;
}
