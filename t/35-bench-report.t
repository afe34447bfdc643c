#!/usr/bin/perl
# harness/bench-report.pl on synthetic measurements: medians over rounds,
# ratios to ftrace, and PASS/MISS against each target.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $dir = tempdir(CLEANUP => 1);

sub report {
	my (%v) = @_;
	my $sites = delete $v{sites};
	open(my $fh, '>', "$dir/raw") or die;
	print $fh "info kernel test cpus 2 rounds 3 calls 1000\n";
	for my $r (0 .. 2) {
		# The middle value of each triple is the median.
		my @k = (0.5, 1, 3);
		for my $e (grep { defined $v{$_} } qw(mt mtpipe mtflight mtreject mtpid mstat off ftrace empty)) {
			# (c) and (e) with a small, fixed noise of 0.1 ns.
			my $f = $e =~ /^(off|empty)$/ ? 1 + ($r - 1) * 0.05 / $v{$e} : $k[$r];
			printf $fh "event %s %d 1000\n", $e, $v{$e} * 1000 * $f;
		}
		for my $c (qw(none mt mstat both ftrace)) {
			printf $fh "work affinity %s %d 4000\n", $c, $v{"aff_$c"} * $k[$r];
			printf $fh "work pingpong %s %d 2000\n", $c, 1e9 * $k[$r];
		}
		print $fh "read mt 1000000 50000 1000\nread ftrace " . ($v{read_ft} * 1000) . " 90000 1000\n";
		print $fh "size mt $v{size_mt} 4000\nsize ftrace 44.000 4000 0\n";
	}
	# stream NAME N TICKS EVENTS DROPPED|OVERRUN [OVERWRITTEN]
	print $fh "stream $_\n" for grep { defined } @v{qw(stream_mt stream_ftrace)};
	close($fh);
	if (defined $sites) {
		open($fh, '>', "$dir/sites") or die;
		print $fh $sites;
		close($fh);
	}
	return scalar(`$top/harness/bench-report.pl $dir/raw testhost @{[defined $sites ? "$dir/sites" : '']}`);
}

my %good = (mt => 12, mstat => 8, off => 1.0, ftrace => 100, empty => 1.0,
	    aff_none => 1e9, aff_mt => 1.01e9, aff_mstat => 1e9, aff_both => 1.02e9,
	    aff_ftrace => 1.2e9, read_ft => 3000, size_mt => 16.2);
my $out = report(%good);
unlike($out, qr/icount/, 'no instruction table without an -icount run');
like($out, qr/\(a\) hook, mt tracing \(with reasons\)\s+12\.0\s+0\.120\s+<= 0\.17 PASS/, 'mt per-event median and ratio; PASS');
like($out, qr/\(b\) hook, mstat collecting\s+8\.0\s+0\.080\s+<= 0\.10 PASS/, 'mstat ratio; PASS');
like($out, qr/mt keeps >= 0\.98 of the affinity throughput: 0\.990 PASS/, 'throughput ratio; PASS');
like($out, qr/16\.2 B, 2\.72 x PASS/, 'record size and ratio; PASS');
like($out, qr/3\.0 x faster; target >= 2 PASS/, 'read-out ratio; PASS');
like($out, qr/indistinguishable PASS/, 'disabled cost within the noise; PASS');
like($out, qr/^\s+mt\s+1010\.0\s+0\.990\s+2500$/m, 'ns per migration from the extra time');

like(report(%good, mt => 17), qr/0\.170\s+<= 0\.17 PASS/, 'mt exactly at 0.17 x ftrace: PASS');
like(report(%good, mt => 17.1), qr/0\.171\s+<= 0\.17 MISS/, 'mt just over 0.17 x ftrace: MISS');
$out = report(%good, mt => 30, mstat => 11, aff_mt => 1.05e9, size_mt => 32, read_ft => 1500, off => 5);
like($out, qr/<= 0\.17 MISS/, 'mt over 0.17 x ftrace: MISS');
like($out, qr/<= 0\.10 MISS/, 'mstat over 0.10 x ftrace: MISS');
like($out, qr/throughput: 0\.952 MISS/, 'throughput under 0.98: MISS');
like($out, qr/32\.0 B, 1\.38 x MISS/, 'record over 16.5 bytes: MISS');
like($out, qr/1\.5 x faster; target >= 2 MISS/, 'read-out under 2 x: MISS');
like($out, qr/distinguishable MISS/, 'disabled cost over the noise: MISS');

# The trace_pipe and flight-recorder rows, and section 6 (streaming).
$out = report(%good, mtpipe => 18, mtflight => 14,
	      stream_mt => 'mt 1 200 1000000 0 0', stream_ftrace => 'ftrace 1 600 1000000 0');
like($out, qr/\(a2\) hook, mt, trace_pipe reader draining\s+18\.0\s+0\.180\s+<= 0\.20 PASS/,
     'trace_pipe row: median, ratio; PASS');
like($out, qr/\(a3\) hook, mt flight recorder recycling\s+14\.0\s+0\.140\s+<= 0\.20 PASS/,
     'flight-recorder row: PASS');
like($out, qr/1000000 events, 0 dropped, 0 overwritten; target 0 lost PASS/, 'stream: 0 lost: PASS');
# The row of a filter that rejects every move: its own, lower target.
like(report(%good, mtreject => 4.9), qr/\(a4\) hook, mt, a filter that rejects every move\s+4\.9\s+0\.049\s+<= 0\.05 PASS/,
     'reject-all filter row: PASS');
like(report(%good, mtreject => 6), qr/\(a4\) [^\n]*0\.060\s+<= 0\.05 MISS/, 'reject-all filter over 0.05 x: MISS');
# The row of a pid filter that selects the task: measured, no target.
like(report(%good, mtpid => 17), qr/\(a5\) hook, mt, a pid filter that selects the task\s+17\.0\s+0\.170\n/,
     'pid filter row: median, ratio, no verdict');
like($out, qr/trace_pipe 2000 ns\/event, tracing\/trace_pipe 6000 ns\/event/, 'stream: reader ns per event');
like($out, qr/<= 0\.5 x ftrace's reader: 0\.33 x PASS/, 'stream: reader CPU ratio: PASS');
$out = report(%good, mtpipe => 25, mtflight => 21,
	      stream_mt => 'mt 1 400 1000000 3 0', stream_ftrace => 'ftrace 1 600 1000000 0');
like($out, qr/<= 0\.20 MISS.*\n.*<= 0\.20 MISS/, 'trace_pipe and flight rows over 0.20 x: MISS');
like($out, qr/3 dropped, 0 overwritten; target 0 lost MISS/, 'stream: a dropped event: MISS');
like($out, qr/0\.67 x MISS/, 'stream: reader over 0.5 x ftrace: MISS');
$out = report(%good, stream_mt => 'mt 1 200 1000000 0 5', stream_ftrace => 'ftrace 1 600 1000000 0');
like($out, qr/0 dropped, 5 overwritten; target 0 lost MISS/, 'stream: an overwritten event: MISS');
like(report(%good), qr/^   not measured \(no stream lines in the raw data\)$/m, 'stream: absent, said so');

# Section 5 from the machine code (a harness/check-hook-sites.pl table).
my $table = "hook sites of build/matrix-on (on) against build/matrix-off\n" .
	"kernel/fork.o copy_process+0x17e2 2B __mt_copy_process - 0\n";
my $zero = $table . "result: sites 33 nop 33 hooked 33 functions 17 adding 0 added 0 unexplained 0 failed 0\n" .
	"off: jump-label NOP at 33 sites, 0 added instructions on the fall-through path\n";
$out = report(%good, off => 5, sites => $zero);
like($out, qr/^   off: jump-label NOP at 33 sites, 0 added instructions on the fall-through path$/m,
     'machine code: the sites line of the table');
like($out, qr/target: every site a NOP, nothing added unexplained: PASS/, 'machine code: PASS');
like($out, qr/\(c\) versus \(e\) under TCG.*for the record: 5\.00 ns versus 1\.00 ns.*distinguishable$/m,
     'the TCG timing row stays, without a verdict');
unlike($out, qr/distinguishable MISS/, 'the TCG timing no longer decides');

my $explained = $table . "result: sites 33 nop 33 hooked 33 functions 17 adding 1 added 9 unexplained 0 failed 0\n" .
	"off: jump-label NOP at 33 sites, 0 added instructions on the fall-through path of 16 of 17 functions\n" .
	"except kernel/sched/fair.o select_task_rq_fair: 9 added, 11 removed: GCC merges no return\n";
$out = report(%good, sites => $explained);
like($out, qr/of 16 of 17 functions\n.*adding \(reasons in out\/hook-sites.txt\): select_task_rq_fair \+9 -11\n.*: PASS/s,
     'machine code: an explained addition is listed, PASS');

(my $unexplained = $explained) =~ s/unexplained 0/unexplained 1/;
$unexplained =~ s/GCC merges no return/NOT EXPLAINED/;
$out = report(%good, sites => $unexplained);
like($out, qr/select_task_rq_fair \+9 -11 \(NOT EXPLAINED\).*unexplained: MISS/s,
     'machine code: an unexplained addition is a MISS');

(my $jmp = $zero) =~ s/nop 33/nop 32/;
like(report(%good, sites => $jmp), qr/unexplained: MISS/, 'machine code: a site that is not a NOP is a MISS');
(my $failed = $zero) =~ s/failed 0/failed 2/;
like(report(%good, sites => $failed), qr/unexplained: MISS/, 'machine code: a failed check is a MISS');
like(report(%good), qr/machine code: not checked/, 'no table: said so, the timing decides');

open(my $fh, '>', "$dir/empty") or die;
close($fh);
my $err = `$top/harness/bench-report.pl $dir/empty x 2>&1`;
ok($? != 0 && $err =~ /no measurements/, 'an empty raw file is an error');

# harness/bench-tools-report.pl: the tools' table.  Three rounds; the
# floor's CPU times 0.9, 0.4, 0.5 (least 0.4); each option set is judged
# on its least CPU time; rounds given out of order; memory is the median.
open($fh, '>', "$dir/tools.raw") or die;
print $fh "info events 1000000 bytes 32000000 cpus 2 rounds 3 date 2026-11-21\n";
my %runs = ('--stats' => [0.9, 0.8, 1.2], '--period 1000 --period_all' => [1.1, 0.92, 1.3],
	    '--pingpong 1000' => [1.2, 1.1, 0.7], '--migrate' => [3, 2, 4],
	    '--stats --summary_pid' => [1.0, 0.6, 1.4]);
for my $r (0 .. 2) {
	printf $fh "floor %d %.2f %d\n", $r + 1, (0.9, 0.4, 0.5)[$r], 5000 + $r;
	for my $k (sort keys %runs) {
		printf $fh "run %d %.2f %d %s\n", $r + 1, $runs{$k}[$r], 10000 + 100 * $r, $k;
	}
	printf $fh "quarter %d 0.30 %d\n", $r + 1, 9000 + $r;
}
close($fh);
$out = `$top/harness/bench-tools-report.pl $dir/tools.raw`;
like($out, qr/^0\.40 s CPU, 2500000 events\/s, 5001 KiB peak; target: every option set <= 2 x the floor$/m,
     'tools: the floor is the least of its rounds, with events/s and the median memory');
like($out, qr/^--stats\s+0\.80\s+1250000\s+10100\s+2\.00  PASS$/m, 'tools: least CPU, events/s, memory, exactly 2 x: PASS');
like($out, qr/^--period 1000 --period_all\s+0\.92\s+1086957\s+10100\s+2\.30  MISS$/m, 'tools: 2.30 x the floor: MISS');
like($out, qr/^--pingpong 1000\s+0\.70\s+1428571\s+10100\s+1\.75  PASS$/m, 'tools: the least of rounds out of order');
like($out, qr/^--migrate\s+2\.00\s+500000\s+10100\s+5\.00  \(a listing: no target\)$/m, 'tools: a listing has no target');
like($out, qr/^3 of 4 option sets within 2 x the floor: 1 MISS$/m, 'tools: the count of PASS and MISS');
like($out, qr/^--stats --summary_pid\s+0\.60\s+1666667\s+10100\s+1\.50  PASS$/m, 'tools: 1.50 x: PASS');
like($out, qr/^memory: --stats --summary_pid peaks at 9001 KiB on 250000 events and 10100 KiB on 1000000$/m,
     'tools: the memory on a quarter of the trace and on all of it');
like($out, qr/^least CPU time of 3 interleaved rounds/m, 'tools: the table says which statistic it took');
$err = `$top/harness/bench-tools-report.pl $dir/empty 2>&1`;
ok($? != 0 && $err =~ /no measurements/, 'tools: an empty raw file is an error');
# With the -icount run (a 4th argument), the targets are judged on its
# instruction counts; the TCG times stay, unjudged.
open(my $ic, '>', "$dir/icount") or die;
for my $r (0 .. 2) {
	printf $ic "event %s %d 1000\n", $_->[0], $_->[1] * 1000 for
		[mt => 30], [mtpipe => 19], [mtflight => 21], [mstat => 9], [off => 4],
		[ftrace => 100], [empty => 3], [clock => 7];
}
close($ic);
open($ic, '>', "$dir/nosites") or die;
close($ic);
$out = `$top/harness/bench-report.pl $dir/raw testhost $dir/nosites $dir/icount`;
like($out, qr/guest instructions per call \(QEMU -icount, exact\)/, 'instruction table heads section 1');
like($out, qr/\(a\) hook, mt tracing \(with reasons\)\s+30\.0\s+0\.300\s+<= 0\.17 MISS/, 'mt judged on instructions');
like($out, qr/\(a2\) hook, mt, trace_pipe reader draining\s+19\.0\s+0\.190\s+<= 0\.20 PASS/, 'pipe judged on instructions: PASS');
like($out, qr/\(a3\) hook, mt flight recorder recycling\s+21\.0\s+0\.210\s+<= 0\.20 MISS/, 'flight judged on instructions: MISS');
like($out, qr/\(f\) local_clock\(\) alone\s+7\.0\s+0\.070$/m, 'local_clock(), unjudged');
my ($tcg) = $out =~ /TCG time of the same calls(.*?)\n\n/s;
ok(defined $tcg && $tcg !~ /PASS|MISS/, 'TCG times are not judged when instructions are there');

# Section 7, the peers: their rows in the instruction table (the -icount
# run), TCG ns beside, ratios to ftrace and to the cheapest per-event
# peer, what each received, and the targets; their workload rows join
# section 2.  Section 8: the capabilities table and its checks.
sub peers_raw {
	my ($file, $rows, %extra) = @_;
	open(my $fh, '>', "$dir/$file") or die;
	print $fh "info kernel test cpus 2 rounds 3 calls 1000\n";
	my @k = (0.5, 1, 3);
	for my $r (0 .. 2) {
		printf $fh "event %s %d 1000\n", $_, $rows->{$_} * 1000 * $k[$r] for sort keys %$rows;
		for my $c (qw(none mt mstat both ftrace tracecmd perf btcount btprint)) {
			printf $fh "work affinity %s %d 4000\n", $c, ($c eq 'perf' ? 2e9 : 1e9) * $k[$r];
			printf $fh "work pingpong %s %d 2000\n", $c, 1e9 * $k[$r];
		}
		print $fh "read mt 1000000 50000 1000\nread ftrace 3000000 90000 1000\n";
		print $fh "size mt 16 4000\nsize ftrace 44.000 4000 0\n";
		print $fh "peer $_\n" for @{$extra{peer}[$r] // []};
	}
	print $fh "$_\n" for @{$extra{cap} // []};
	close($fh);
}
my %peer_ns = (mt => 130, mtpipe => 150, mstat => 70, off => 2, empty => 2, ftrace => 800,
	       tracecmd => 900, perf => 2000, btcount => 1200, btprint => 1500, evftrace => 850,
	       rperf => 2100);
my @rounds = map { ["tracecmd 2000 2000 0 3", "perf 2000 2000 0 5", "btcount 2000 " . ($_ == 1 ? 1999 : 2000) . " 0 20",
		    "btprint 2000 2000 7 21", "rperf 2000 2000 0 4"] } 0 .. 2;
my @cap = ('cap ftrace 90 1 1 0', 'cap mt 90 1 1 0', 'cap tracecmd 90 1 1 0', 'cap perf 90 1 1 0',
	   'cap btprint 90 1 0 0', 'cap btcount 95 1 0 0', 'cap-fork 30', 'cap-marks 2 1');
peers_raw('praw', \%peer_ns, peer => \@rounds, cap => \@cap);
open($ic, '>', "$dir/picount") or die;
for my $r (0 .. 2) {
	printf $ic "event %s %d 1000\n", $_->[0], $_->[1] * 1000 for
		[mt => 70], [mtpipe => 70], [mstat => 52], [off => 4], [ftrace => 580], [empty => 3],
		[tracecmd => 600], [perf => 1400], [btcount => 400], [btprint => 900], [evftrace => 638],
		[rperf => 1470];
}
close($ic);
$out = `$top/harness/bench-report.pl $dir/praw testhost $dir/nosites $dir/picount`;
# The event with the why: its rows under ftrace and perf, against
# sched_migrate_task under the same tool.
like($out, qr/^   \(g\) sched_migrate_reason, fired by the hook\s+638\.0\s+1\.100$/m,
     'the event by ftrace: a row of section 1, x ftrace\'s sched_migrate_task');
like($out, qr/^   8   ftrace sched_migrate_reason, no reader \(g\)\s+638\.0\s+1\.100\s+1\.100\s+850\.0/m,
     'peers: the event by ftrace, row 8');
like($out, qr/^   9   perf record -e sched:sched_migrate_reason -a\s+1470\.0\s+2\.534 .*6000\/6000 \(3 of 3 rounds all\), lost 0, 4 s$/m,
     'peers: the event by perf, row 9, what it received');
like($out, qr/sched_migrate_task under the same tool: ftrace 638\.0 against 580\.0 \(1\.10 x\), perf 1470\.0 against 1400\.0 \(1\.05 x\)$/m,
     'peers: the event against sched_migrate_task under the same tool');
like($out, qr/rounds in which a peer received every event fired: tracecmd 3 of 3, perf 3 of 3, btcount 2 of 3, btprint 3 of 3, rperf 3 of 3$/m,
     'peers: rperf\'s rounds counted');
like($out, qr/^7\. Peers: /m, 'peers: section 7 is there');
like($out, qr/^   2   trace-cmd record -e sched_migrate_task\s+600\.0\s+1\.034\s+1\.034\s+900\.0\s+[\d.]+\s+6000\/6000 \(3 of 3 rounds all\), lost 0, 3 s$/m,
     'peers: trace-cmd in instructions, x ftrace, x the cheapest, TCG ns, received');
like($out, qr/^   3   perf record -e sched:sched_migrate_task -a\s+1400\.0\s+2\.414\s+2\.414\s+2000\.0/m,
     'peers: perf row');
like($out, qr/^   4   bpftrace, count by CPU pair \(per-CPU map\)\s+400\.0 .*5999\/6000 \(2 of 3 rounds all\)/m,
     'peers: a round that received less is counted');
like($out, qr/^   5   bpftrace, printf of every event\s+900\.0 .*lost 21, 21 s$/m, 'peers: lost events are summed');
like($out, qr/^   6   mt trace \(a\)\s+70\.0\s+0\.121\s+0\.121\s+130\.0/m, 'peers: our trace against the cheapest (ftrace)');
like($out, qr/here ftrace sched_migrate_task, no reader;/, 'peers: the cheapest per-event peer is named');
like($out, qr/mt trace costs less than every per-event peer: 70\.0 < 580\.0 PASS/, 'peers: trace target PASS');
like($out, qr/aim: mt trace <= 0\.5 x the cheapest per-event peer: 0\.121 x PASS/, 'peers: aim PASS');
like($out, qr/mstat costs less than bpftrace's count: 52\.0 < 400\.0 \(0\.130 x\) PASS/, 'peers: mstat target PASS');
like($out, qr/every peer attached in every round \(it received events of the firing shell\): PASS/,
     'peers: attached in every round');
like($out, qr/rounds in which a peer received every event fired: tracecmd 3 of 3, perf 3 of 3, btcount 2 of 3, btprint 3 of 3, rperf 3 of 3$/m,
     'peers: a round that received less is counted');
like($out, qr/^\s+perf\s+2000\.0\s+0\.500\s+250000$/m, 'peers: their affinity rows join section 2');
# Section 8.
like($out, qr/^   from\/to CPU, pid\s+yes\*\s+yes\*\s+yes\*\s+pair\*\s+yes\*\s+yes\*\s+counts$/m,
     'capabilities: from/to and pid checked for every tool');
like($out, qr/^   fork placement\s+no\*\s+no\*\s+no\*\s+no\*\s+no\*\s+yes\*\s+yes$/m,
     'capabilities: fork placement missing from the peers, checked');
like($out, qr/^   time order across CPUs\s+yes\*\s+yes\*\s+yes\*\s+-\s+no\*\s+yes\*/m,
     'capabilities: bpftrace\'s printing out of order, checked');
like($out, qr/^   marks\s+marker\s+marker\*\s+no\s+no\s+no\s+yes\*\s+no$/m, 'capabilities: marks');
like($out, qr/fork placements: mt 30 \(wake_up_new_task\), in no peer: .*: PASS/, 'capabilities: the fork check PASS');
like($out, qr/btprint\s+90 moves, the same as ftrace's, not in its order, lost 0/, 'capabilities: a tool\'s evidence');
# A peer that missed moves, a target missed.
$cap[3] = 'cap perf 80 0 0 3';
$cap[1] = 'cap mt 90 0 0 0';
peers_raw('praw', {%peer_ns}, peer => [map { [@$_[0 .. 1], 'btcount attach-failed', 'btprint 2000 0 2000 9'] } @rounds],
	  cap => \@cap);
open($ic, '>', "$dir/picount") or die;
printf $ic "event %s %d 1000\n", $_->[0], $_->[1] * 1000 for
	[mt => 300], [mstat => 500], [ftrace => 580], [tracecmd => 600], [perf => 1400], [btcount => 400],
	[btprint => 250];
close($ic);
$out = `$top/harness/bench-report.pl $dir/praw testhost $dir/nosites $dir/picount`;
like($out, qr/here bpftrace, printf of every event;/, 'peers: the cheapest per-event peer may be bpftrace');
like($out, qr/attached in every round .*: MISS \(btcount btprint\)/,
     'peers: a failed attach, or nothing received, is a MISS');
like($out, qr/costs less than every per-event peer: 300\.0 < 250\.0 MISS/, 'peers: trace target MISS');
like($out, qr/aim: .*: 1\.200 x MISS/, 'peers: aim MISS');
like($out, qr/mstat costs less than bpftrace's count: 500\.0 < 400\.0 \(1\.250 x\) MISS/, 'peers: mstat target MISS');
like($out, qr/^   from\/to CPU, pid\s+yes\*\s+yes\*\s+yes!/m, 'capabilities: a failed check is marked');
like($out, qr/in no peer: .*: MISS/, 'capabilities: the fork check fails when mt differs from ftrace');
like($out, qr/^   1   ftrace sched_migrate_task, no reader\s+580\.0\s+1\.000\s+2\.320\s+800\.0\s+[\d.]+$/m,
     'peers: a row without received data');
unlike(report(%good), qr/^7\. Peers/m, 'no peers in the raw data: no section 7');

done_testing();
