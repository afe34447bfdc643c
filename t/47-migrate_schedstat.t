#!/usr/bin/perl
# scripts/migrate_schedstat: on the guest's recording of mt_schedstat.sh
# (a trace and the kernel's counters around it), every workload task
# agrees and the balancer's totals agree but for the window's edges; on
# made-up files, a difference is flagged, one at the edges is not, and bad
# input is a one-line error with exit 2.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib dirname(abs_path($0));
use MtTest qw(write_file run guest_file tmpdir);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $tool = "$top/scripts/migrate_schedstat";
my $guest = "$top/out/check";

# ---- the guest's recording ----------------------------------------------------
# make check's guest leaves it (mt_schedstat.sh); run alone without it,
# one plain failure says so (MtTest::guest_file).
my ($rc, $out, $err);
if (my ($snap, $trace, $pids) = guest_file(map { "$guest/schedstat.$_" } qw(snap trace pids))) {
	my @pids = split ' ', `cat $pids`;
	($rc, $out, $err) = run("$tool " . join(' ', map { "--pid $_" } @pids) . " $snap $trace");
	is($err, '', 'it reads the recording without a complaint');
	for my $pid (@pids) {
		like($out, qr/^\Q$pid\E\s+\S+\s+\d+\s+\d+\s+ok\s+\d+\s+\d+\s+ok$/m,
		     "workload task $pid: both counts agree");
	}
	like($out, qr/^lb_gained busy\s+\d+\s+\d+\s+(ok|edge)$/m, 'busy balancing agrees');
	like($out, qr/^lb_gained idle\s+\d+\s+\d+\s+(ok|edge)$/m, 'idle balancing agrees');
	like($out, qr/^lb_gained newidle\s+\d+\s+\d+\s+(ok|edge)$/m, 'newly idle balancing agrees');
	like($out, qr/^alb_pushed\s+\d+\s+\d+\s+(ok|edge)$/m, 'active balancing agrees');
	diag($out) unless Test::More->builder->is_passing;
}

# ---- made-up files: what is flagged ---------------------------------------------
my $hdr = "# version 1.2.0\n# nr_cpus 2\n# ts_field 1\n# dropped 0\n# overwritten 0\n" .
	"# cause 1 try_to_wake_up\n# cause 2 wake_up_new_task\n# cause 3 detach_tasks\n" .
	"# cause 4 detach_one_task\n# reason 1 lb_busy_load\n# reason 2 lb_newidle_task\n" .
	"# reason 3 active_balance\n";
# 100 ms between two marks: pid 7 woken across at 10 and 50 ms, balanced
# at 60 ms (busy) and 70 ms (newly idle), pushed at 80 ms; forked at 20 ms.
my $t0 = 1 << 32;
my @lines = ([0, '. . 1 7 0x00000000'], [10, '0 1 7 1 0'], [20, '0 1 7 2 0'], [50, '1 0 7 1 0'], [60, '0 1 7 3 1'],
	     [70, '1 0 7 3 2'], [80, '0 1 7 4 3'], [100, '. . 1 7 0x00000001']);
my $tr = write_file('made.trace', $hdr . join('', map {
	sprintf("0x%016x %s %s\n", $t0 + $_->[0] * 1e6, substr($_->[1], 0, 1) eq '.' ? 0 : 1, $_->[1])
} @lines));
# SNAP: the kernel's counts after (before: all zero); lb_gained per
# domain line in version 16's order busy, idle, newly idle.
sub snap {
	my ($mig, $wmig, $busy, $idle, $newidle, $alb) = @_;
	my $dom = sub {
		my @g = @_[0 .. 2];
		return 'domain0 3 ' . join(' ', map { "0 0 0 0 $_ 0 0 0" } @g) . " 0 0 $_[3] 0 0 0 0 0 0 0 0 0\n";
	};
	return "# migrate_record schedstat 1\n# when before\nversion 16\ntimestamp 1\ncpu0 0 0 0 0 0 0 0 0 0\n" .
		$dom->(0, 0, 0, 0) . "task 7 0 0 worker\n# when after\nversion 16\ntimestamp 2\n" .
		"cpu0 0 0 0 0 0 0 0 0 0\n" . $dom->($busy, $idle, $newidle, $alb) . "task 7 $mig $wmig worker\n";
}
# The moves but the fork: 5; wakeups 2; busy 1, idle 1 (the push), newly idle 1, pushed 1.
($rc, $out) = run("$tool " . write_file('ok.snap', snap(5, 2, 1, 1, 1, 1)) . " $tr");
is($rc, 0, 'counts that agree: exit 0') or diag($out);
like($out, qr/^7\s+worker\s+5\s+5\s+ok\s+2\s+2\s+ok$/m, 'the task agrees');
($rc, $out) = run("$tool " . write_file('bad.snap', snap(6, 2, 1, 1, 1, 1)) . " $tr");
is($rc, 1, 'one migration more in the kernel, in the middle: exit 1');
like($out, qr/^7\s+worker\s+6\s+5\s+DIFF/m, 'the task is flagged');
($rc, $out) = run("$tool " . write_file('lb.snap', snap(5, 2, 1, 1, 2, 1)) . " $tr");
is($rc, 1, 'a newly idle balance more in the kernel: exit 1');
like($out, qr/^lb_gained newidle\s+2\s+1\s+DIFF$/m, 'newly idle balancing is flagged');
($rc, $out) = run("$tool " . write_file('swap.snap', snap(5, 2, 1, 2, 0, 1)) . " $tr");
is($rc, 1, 'a newly idle move counted as idle: exit 1');
($rc, $out) = run("$tool --edge_ms 15 " . write_file('edge.snap', snap(6, 3, 1, 1, 1, 1)) . " $tr");
is($rc, 0, 'a wakeup move more, within 15 ms of the start: at the edge, exit 0') or diag($out);
like($out, qr/^7\s+worker\s+6\s+5\s+edge\s+3\s+2\s+edge$/m, 'the task is at the edge');

# ---- the marks that bracket the snapshots (migrate_record's) ----------------------
# Outer marks at 0 and 100 ms, inner at 15 and 85: the wakeup at 10 ms
# lies between the outer ones only.  The kernel's count may be anything
# from the moves between the inner marks to those between the outer.
my @br = ([0, '. . 1 7 0x5c5e0001'], [10, '0 1 7 1 0'], [15, '. . 1 7 0x5c5e0002'], [20, '0 1 7 2 0'],
	  [50, '1 0 7 1 0'], [60, '0 1 7 3 1'], [70, '1 0 7 3 2'], [80, '0 1 7 4 3'],
	  [85, '. . 1 7 0x5c5e0003'], [100, '. . 1 7 0x5c5e0004']);
my $brt = write_file('br.trace', $hdr . join('', map {
	sprintf("0x%016x %s %s\n", $t0 + $_->[0] * 1e6, substr($_->[1], 0, 1) eq '.' ? 0 : 1, $_->[1])
} @br));
sub bracketed {
	my $snap = snap(@_);
	$snap =~ s/^# when before\n/# when before\n# bracket 0x5c5e0001 0x5c5e0002\n/m;
	$snap =~ s/^# when after\n/# when after\n# bracket 0x5c5e0003 0x5c5e0004\n/m;
	return $snap;
}
# Between the inner marks: 4 moves but the fork, 1 wakeup; between the
# outer: 5 and 2.
for my $case ([4, 1, 0, 'ok', 'ok', 'the inner marks\' count'], [5, 2, 0, 'edge', 'edge', 'the outer marks\' count'],
	      [6, 2, 1, 'DIFF', 'edge', 'one more than the outer marks\''],
	      [3, 1, 1, 'DIFF', 'ok', 'one fewer than the inner marks\'']) {
	my ($mig, $wmig, $want_rc, $vm, $vw, $what) = @$case;
	($rc, $out) = run("$tool --edge_ms 1000 " . write_file('br.snap', bracketed($mig, $wmig, 1, 1, 1, 1)) . " $brt");
	is($rc, $want_rc, "bracketed, the kernel's $mig moves: $what, exit $want_rc");
	like($out, qr/^7\s+worker\s+$mig\s+4\s+$vm\s+$wmig\s+1\s+$vw$/m, "bracketed, $mig moves: $vm (the edges ignored)")
		or diag($out);
}
($rc, $out, $err) = run("$tool " . write_file('br.snap', bracketed(4, 1, 1, 1, 1, 1)) . " $tr");
ok($rc == 2 && $err =~ /^migrate_schedstat: \S+: not the trace of the snapshots: it lacks their marks\n\z/,
   'bracketed snapshots, a trace without their marks: exit 2, one line') or diag($err);
(my $half = bracketed(4, 1, 1, 1, 1, 1)) =~ s/^# bracket 0x5c5e0003 0x5c5e0004\n//m;
($rc, $out, $err) = run("$tool " . write_file('half.snap', $half) . " $brt");
ok($rc == 2 && $err =~ /^migrate_schedstat: \S+: one snapshot has its '# bracket' marks, the other not\n\z/,
   'one snapshot bracketed, the other not: exit 2, one line') or diag($err);

# ---- bad input -------------------------------------------------------------------
for my $case (['not a snapshot', "x\n"], ['no after', "# migrate_record schedstat 1\n# when before\nversion 16\n"],
	      ['unknown version', "# migrate_record schedstat 1\n# when before\nversion 99\n# when after\nversion 99\n"],
	      ['short domain', "# migrate_record schedstat 1\n# when before\nversion 16\ndomain0 3 1 2\n# when after\n"]) {
	($rc, $out, $err) = run("$tool " . write_file('bad', $case->[1]) . " $tr");
	is($rc, 2, "$case->[0]: exit 2");
	like($err, qr/^migrate_schedstat: [^\n]+\n\z/, "$case->[0]: one line on stderr");
}

# ---- losses: the header's dropped, its overwritten, the body's lost lines -----------
# Each alone makes the counts incomparable: exit 2, one line that says so.
my $body = join('', map {
	sprintf("0x%016x %s %s\n", $t0 + $_->[0] * 1e6, substr($_->[1], 0, 1) eq '.' ? 0 : 1, $_->[1])
} @lines);
my $ok2 = write_file('ok2.snap', snap(5, 2, 1, 1, 1, 1));
(my $streamed = $hdr) =~ s/# dropped 0\n# overwritten 0\n//;
$streamed .= "# loc 8 lost\n";
# A stream of trace_pipe: no dropped or overwritten line, its losses of 4
# and 3 'lost' lines in the body (lost records are kind 8 here).
my $lost_line = sprintf("0x%016x 1 . . 0 8 4\n0x%016x 0 . . 0 8 3\n", $t0 + 30e6, $t0 + 31e6);
for my $case (['dropped 3 in the header', $hdr =~ s/dropped 0/dropped 3/r . $body, 'dropped 3, overwritten 0, 0 in 0'],
	      ['overwritten 2 in the header', $hdr =~ s/overwritten 0/overwritten 2/r . $body,
	       'dropped 0, overwritten 2, 0 in 0'],
	      ['lost lines of 4 and 3 in the body', $streamed . join('', (split /^/, $body)[0 .. 2]) . $lost_line .
	       join('', (split /^/, $body)[3 .. 7]), 'dropped 0, overwritten 0, 7 in 2']) {
	($rc, $out, $err) = run("$tool $ok2 " . write_file('lost.trace', $case->[1]));
	is($rc, 2, "$case->[0]: the counts cannot be compared, exit 2");
	is($err, "migrate_schedstat: " . tmpdir() . "/lost.trace: the trace lost records ($case->[2] 'lost' lines):" .
	   " its counts cannot be compared\n", "$case->[0]: one line that says so");
}
# The same stream without its lost line is compared: the loss alone refused it.
($rc, $out) = run("$tool $ok2 " . write_file('stream.trace', $streamed . $body));
is($rc, 0, 'the stream without its loss: compared, exit 0') or diag($out);

# ---- the trace as migrate_stats reads it: CR LF, no nr_cpus, odd names --------------
(my $crlf = $hdr . $body) =~ s/\n/\r\n/g;
($rc, $out) = run("$tool $ok2 " . write_file('crlf.trace', $crlf));
ok($rc == 0 && $out =~ /^7\s+worker\s+5\s+5\s+ok\s+2\s+2\s+ok$/m, 'lines ending in CR LF: read, the task agrees')
	or diag($out);
(my $nocpus = $hdr . $body) =~ s/# nr_cpus 2\n//;
($rc, $out) = run("$tool $ok2 " . write_file('nocpus.trace', $nocpus));
ok($rc == 0 && $out =~ /^lb_gained busy\s+1\s+1\s+ok$/m, 'no nr_cpus line: read, the balancer agrees') or diag($out);
# A reason name of printable ASCII with < > " & \ is a name like another:
# here the busy balance's reason, which must still count as lb_busy_*.
(my $odd = $hdr . $body) =~ s/lb_busy_load/lb_busy_<a>"&\\/;
($rc, $out) = run("$tool $ok2 " . write_file('odd.trace', $odd));
ok($rc == 0 && $out =~ /^lb_gained busy\s+1\s+1\s+ok$/m, 'a reason named lb_busy_<a>"&\\: counted as busy')
	or diag($out);
# The trace's rules are migrate_stats': a move out of time order is refused.
my @swapped = split /^/, $hdr . $body;
@swapped[-3, -2] = @swapped[-2, -3];
($rc, $out, $err) = run("$tool $ok2 " . write_file('order.trace', join('', @swapped)));
ok($rc == 2 && $err =~ /:\d+: input is not in time order; sort it first\n\z/ && ($err =~ tr/\n//) == 1,
   'events out of time order: the one line migrate_stats gives') or diag($err);

# ---- /proc/schedstat versions 15 and 16 -------------------------------------------
# Version 15 orders a domain's idle types idle, busy, newly idle; 16 busy,
# idle, newly idle.  The same counts written in each version's order read
# the same; version 16's line read as version 15 swaps busy and idle.
sub domain {
	my ($order, %n) = @_;
	return 'domain0 3 ' . join(' ', map { "0 0 0 0 $n{$_} 0 0 0" } @$order) . " 0 0 $n{alb} 0 0 0 0 0 0 0 0 0\n";
}
sub snap_v {
	my ($v, $order, %n) = @_;
	my $zero = domain($order, busy => 0, idle => 0, newidle => 0, alb => 0);
	return "# migrate_record schedstat 1\n# when before\nversion $v\n$zero" . "task 7 0 0 worker\n" .
		"# when after\nversion $v\n" . domain($order, %n) . "task 7 5 2 worker\n";
}
# Busy 1, idle 2 (one of them beyond the trace's), newly idle 1, pushed 1.
my %n = (busy => 1, idle => 2, newidle => 1, alb => 1);
my $tr2 = write_file('v.trace', $hdr . $body);
for my $v ([15, [qw(idle busy newidle)]], [16, [qw(busy idle newidle)]]) {
	($rc, $out) = run("$tool " . write_file("v$v->[0].snap", snap_v($v->[0], $v->[1], %n)) . " $tr2");
	ok($rc == 1 && $out =~ /^lb_gained busy\s+1\s+1\s+ok$/m && $out =~ /^lb_gained idle\s+2\s+1\s+DIFF$/m &&
	   $out =~ /^lb_gained newidle\s+1\s+1\s+ok$/m, "version $v->[0]: busy 1, idle 2 read in its order")
		or diag($out);
}
($rc, $out) = run("$tool " . write_file('v15as16.snap', snap_v(15, [qw(busy idle newidle)], %n)) . " $tr2");
ok($out =~ /^lb_gained busy\s+2\s+1\s+DIFF$/m && $out =~ /^lb_gained idle\s+1\s+1\s+ok$/m,
   'version 15 with the counts in version 16\'s order: busy and idle swapped') or diag($out);
done_testing();
