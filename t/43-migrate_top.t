#!/usr/bin/perl
# scripts/migrate_top on the host, no kernel needed, and no timing to
# depend on: with --replay its clock is the trace's, so that each screen's
# interval and rates are known exactly.  A FIFO fed with 50 migrations
# every 100 ms of trace time gives 500 per second, screen by screen,
# whatever the pace of the writer; a trace made here gives, screen by
# screen, the rates and totals counted from its events (an event on an
# interval's end opens the next, a gap makes a longer interval, the last
# screen ends at the last event, --top N shows N rows); a whole trace on
# standard input gives, at its end, the totals migrate_stats counts, per
# cause, per cause/reason, per CPU pair and per task; bad input is one
# line and exit 2.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use POSIX qw(mkfifo);
use Time::HiRes qw(sleep);
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my ($mtop, $stats) = map { "$top/scripts/migrate_$_" } qw(top stats);
my $dir = tempdir(CLEANUP => 1);

my $hdr = "# version 1.2.0\n# nr_cpus 4\n# ts_field 1\n# cause 1 try_to_wake_up\n# cause 2 detach_tasks\n" .
	"# loc 3 copy_process\n# loc 4 set_task_comm\n# loc 5 task_list\n# loc 6 mark\n# loc 7 lost\n" .
	"# loc 8 saved_comm\n# reason 1 wake_affine\n";

# The screens of migrate_top's output: per screen, the header's numbers
# and, per section, its rows [key, per second, total] in order.
sub screens {
	my @s;
	for my $scr (split /^(?=migrate_top )/m, join('', @_)) {
		my ($secs, $rate, $total, $lost) =
			$scr =~ /^migrate_top \S+(?: s)?  interval (\S+) s  (\S+) migrations\/s  total (\d+)  lost (\d+)$/m
			or next;
		my %x = (secs => $secs, rate => $rate, total => $total, lost => $lost);
		my $sec;
		for (split /\n/, $scr) {
			if (/^(cause|cause\/reason|from -> to)\s+per sec\s+total$/ || /^\s+pid name\s+per sec\s+total$/) {
				$sec = $1 // 'task';
				next;
			}
			next unless $sec && /\S/;
			my @w = split;
			push @{$x{$sec}}, [join(' ', @w[0 .. $#w - 2]), @w[-2, -1]];
		}
		push @s, \%x;
	}
	return @s;
}

# ---- a FIFO at 500 migrations a second of trace time ---------------------------

mkfifo("$dir/fifo", 0600) or die "mkfifo: $!";
my $pid = fork() // die;
if (!$pid) {
	# 50 migrations every 100 ms for 4.5 s, one every 2 ms from the
	# first event on: 34 of try_to_wake_up and 16 of detach_tasks.  The
	# writer's own pace does not matter.
	open(my $w, '>', "$dir/fifo") or exit(1);
	$w->autoflush(1);
	$SIG{PIPE} = sub { exit(0) };
	print $w $hdr, sprintf("0x%016x 0 . . 7 5 : paced\n", 1e9);
	for my $b (0 .. 44) {
		my $s = '';
		for my $i (1 .. 50) {
			$s .= sprintf("0x%016x 1 0 1 7 %d%s\n", 1e9 + $b * 1e8 + ($i - 1) * 2e6, $i % 3 ? 1 : 2,
				      $i % 3 ? ' 1' : '');
		}
		print $w $s;
		sleep(0.02);
	}
	exit(0);
}
my @out = `$mtop --no-clear --replay --interval 1 --count 3 $dir/fifo 2>&1`;
my $rc = $? >> 8;
kill('TERM', $pid);
waitpid($pid, 0);
is($rc, 0, '--count 3: exits 0 after three redraws');
my @scr = screens(@out);
is(scalar(@scr), 3, 'three screens');
is(join(' ', map { "$_->{secs} $_->{rate} $_->{total}" } @scr), '1.00 500.0 500 1.00 500.0 1000 1.00 500.0 1500',
   'each screen: 1 s of trace time, 500 migrations/s, the totals growing by 500');
# 1 s holds 10 bursts of 50: 340 wakeups and 160 detaches.
is(join(' ', map { "@$_" } @{$scr[2]{cause}}), 'try_to_wake_up 340.0 1020 detach_tasks 160.0 480',
   'per cause: 34 wakeups for 16 detaches in 50');
is(join(' ', map { "@$_" } @{$scr[2]{'cause/reason'}}), 'try_to_wake_up/wake_affine 340.0 1020 detach_tasks/none 160.0 480',
   'per cause/reason');
is(join(' ', map { "@$_" } @{$scr[2]{'from -> to'}}), '0 -> 1 500.0 1500', 'per CPU pair');
is(join(' ', map { "@$_" } @{$scr[2]{task}}), '7 paced 500.0 1500', 'per task, with its name');

# ---- screens at their boundaries ---------------------------------------------------

# Migrations [seconds, from, to, pid, cause]; intervals of 1 s from the
# first event (0 s).  One migration at exactly 1 s, one at exactly 2 s;
# nothing from 2.2 s to 4.5 s; the last at 4.6 s.
my @m = ([0, 0, 1, 10, 1], [0.1, 0, 1, 10, 1], [0.2, 1, 2, 11, 2], [0.5, 0, 1, 12, 1], [0.9, 2, 3, 10, 2],
	 [1.0, 1, 2, 11, 1], [1.5, 0, 1, 13, 1], [1.9, 3, 0, 13, 2], [2.0, 3, 0, 10, 1], [2.2, 0, 1, 11, 2],
	 [4.5, 1, 2, 10, 1], [4.5, 2, 3, 12, 2], [4.6, 1, 2, 13, 1]);
my $tr = $hdr . sprintf("0x%016x 0 . . . start_sched_clock 1700000000 0\n", 1e9) .
	join('', map { sprintf("0x%016x %d %d %d %d %d\n", 1e9 + $_->[0] * 1e9, $_->[2], @$_[1 .. 4]) } @m);
open(my $fh, '>', "$dir/screens") or die;
print $fh $tr;
close($fh);
# Screens: [0, 1), [1, 2), [2, 4.5) drawn when the event at 4.5 s comes,
# [4.5, 4.6] at the end.
my @want;
my @cn = ('', 'try_to_wake_up', 'detach_tasks');
for my $w ([0, 1], [1, 2], [2, 4.5], [4.5, 4.6, 'end']) {
	my ($from, $to, $end) = @$w;
	my @in = grep { $_->[0] >= $from && ($end ? $_->[0] <= $to : $_->[0] < $to) } @m;
	my @all = grep { $end ? 1 : $_->[0] < $to } @m;
	my $secs = $to - $from;
	my %x = (secs => sprintf('%.2f', $secs), rate => sprintf('%.1f', @in / $secs), total => scalar(@all));
	for my $k (['cause', sub { $cn[$_[0][4]] }], ['from -> to', sub { "$_[0][1] -> $_[0][2]" }],
		   ['task', sub { "$_[0][3] ?" }]) {
		my ($sec, $key) = @$k;
		my (%now, %tot);
		$now{$key->($_)}++ for @in;
		$tot{$key->($_)}++ for @all;
		my @keys = sort { $tot{$b} <=> $tot{$a} || $a cmp $b } keys %tot;
		@keys = @keys[0 .. 1] if $sec ne 'cause' && @keys > 2;		# --top 2
		$x{$sec} = join(', ', map { "$_ " . sprintf('%.1f', ($now{$_} // 0) / $secs) . " $tot{$_}" } @keys);
	}
	push @want, \%x;
}
my @got = screens(`$mtop --no-clear --replay --top 2 $dir/screens 2>&1`);
is(scalar(@got), 4, 'four screens: three at the ends of intervals, one at the end of the input');
for my $i (0 .. $#want) {
	my ($w, $g) = ($want[$i], $got[$i] // {});
	is(join(' ', map { $g->{$_} // '?' } qw(secs rate total)), "$w->{secs} $w->{rate} $w->{total}",
	   "screen " . ($i + 1) . ": its interval in trace time, its rate per second, the total so far");
	for my $sec ('cause', 'from -> to', 'task') {
		is(join(', ', map { "@$_" } @{$g->{$sec} // []}), $w->{$sec},
		   "screen " . ($i + 1) . ", $sec: per second in the interval, total so far" .
		   ($sec eq 'cause' ? '' : ', the 2 busiest (--top 2)'));
	}
}
@got = screens(`$mtop --no-clear --replay --count 2 $dir/screens 2>&1`);
is(join(' ', map { $_->{total} } @got), '5 8', '--count 2: the first two screens, then the end');
# A last event on an interval's end: the last screen lasted no time.
open($fh, '>', "$dir/edge") or die;
print $fh $hdr . sprintf("0x%016x 1 0 1 5 1\n0x%016x 2 1 2 5 1\n", 1e9, 2e9);
close($fh);
@got = screens(`$mtop --no-clear --replay $dir/edge 2>&1`);
is(join(' ', map { "$_->{secs} $_->{rate} $_->{total}" } @got), '1.00 1.0 1 0.00 - 2',
   'the last event on an interval\'s end: a last screen of no time, its rate -');

# A jump of the trace's clock by 2^56 ns (over two years): one screen
# for the jump, at once, not one loop per interval of 0.1 s.
open($fh, '>', "$dir/jump") or die;
print $fh $hdr . "0x0000000001000010 1 0 1 5 1\n0x0100000000000000 2 1 2 5 1\n" .
	"0x0100000000000001 3 2 3 5 1\n";
close($fh);
my $t0 = time();
@got = screens(`timeout 20 $mtop --no-clear --replay --interval 0.1 $dir/jump 2>&1`);
ok(time() - $t0 < 5, 'a forward jump of 2^56 ns: done in seconds');
is(join(' ', map { $_->{total} } @got), '1 3',
   'a forward jump: the screen at the jump (the first move), one at the end');

# ---- a whole trace on standard input: the totals of migrate_stats ----------------

srand(43);
my $t = $hdr;
my $ts = 1e9;
$t .= sprintf("0x%016x 0 . . %d 5 : task %d\n", $ts, $_, $_) for 100 .. 119;
for (1 .. 3000) {
	$ts += 1000 + int(rand(1e5));
	my $f = int(rand(4));
	my $to = ($f + 1 + int(rand(3))) % 4;
	$t .= sprintf("0x%016x %d %d %d %d %d %d\n", $ts, $to, $f, $to, 100 + int(rand(20)), 1 + int(rand(2)), int(rand(2)));
	$t .= sprintf("0x%016x 2 . . 0 7 4\n", $ts) if $_ % 1000 == 0;
	$t .= sprintf("0x%016x 2 . . 105 8 : kept\n", $ts) if $_ == 1500;
}
open($fh, '>', "$dir/trace") or die;
print $fh $t;
close($fh);
my $screen = `$mtop --no-clear --top 100 - < $dir/trace`;
is($? >> 8, 0, 'a trace on standard input: exit 0 at its end');
my $st = `$stats --stats --summary_pid $dir/trace 2>/dev/null`;
for my $c (qw(try_to_wake_up detach_tasks)) {
	my ($want) = $st =~ /^$c\s+(\d+)\s/m;
	like($screen, qr/^$c\s+[\d.]+\s+$want$/m, "$c: the total of migrate_stats ($want)");
}
my %reason = $st =~ m@^(\w+/\w+)\s+(\d+)\s@mg;
my %got = $screen =~ m@^(\w+/\w+)\s+[\d.]+\s+(\d+)$@mg;
is_deeply(\%got, \%reason, 'per cause/reason: the totals of migrate_stats');
my ($cols, $mat) = $st =~ /^from\\to \(count\)(.*?) +total\n(.*?)\ntotal/ms;
my @cols = map { s/cpu//r } split ' ', $cols;
my %pairs;
for (split /\n/, $mat) {
	my ($c, @n) = split;
	$c =~ s/cpu//;
	$pairs{"$c -> $cols[$_]"} = $n[$_] for grep { $n[$_] } 0 .. $#cols;
}
%got = $screen =~ /^(\d+ -> \d+)\s+[\d.]+\s+(\d+)$/mg;
is_deeply(\%got, \%pairs, 'per CPU pair: the totals of migrate_stats');
my %tasks = map { /^\s+(\d+)\s+(\d+)\s+\S+\s+(.*)$/ ? ($1 => "$2 $3") : () } grep { /^\s+\d/ } split /\n/, $st;
%got = map { /^\s+(\d+) (.*?)\s+[\d.]+\s+(\d+)$/ ? ($1 => "$3 $2") : () } grep { /^\s+\d+ \D/ } split /\n/, $screen;
$tasks{105} =~ s/ .*/ kept/;
is_deeply(\%got, \%tasks, 'per task: the totals and the names (saved_comm too)');
like($screen, qr/ lost 12$/m, 'the lost records counted');

# ---- refusals --------------------------------------------------------------------

for my $b (['--interval 0', '', qr/--interval wants/], ['--count x', '', qr/--count wants/],
	   ['-', "# version 1.2.0\n0x0000000000000001 0 1 1 5 1\n", qr/:2: a migration from CPU 1 to itself/],
	   ['-', "# version 1.2.0\ngarbage\n", qr/:2: malformed event line/], ['-', '', qr/:0: no '# version' line/]) {
	open($fh, '>', "$dir/in") or die;
	print $fh $b->[1];
	close($fh);
	my $err = `$mtop --no-clear --count 1 $b->[0] < $dir/in 2>&1 >/dev/null`;
	ok($? >> 8 == 2 && $err =~ $b->[2] && ($err =~ tr/\n//) == 1, "refused with one line: $b->[0] " .
	   ($b->[1] =~ s/\n.*//sr)) or diag($err);
}
done_testing();
