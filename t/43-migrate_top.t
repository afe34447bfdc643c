#!/usr/bin/perl
# scripts/migrate_top on the host, no kernel needed: a FIFO fed with trace
# lines at a known pace gives the rates of that pace, interval by
# interval; a whole trace on standard input gives, at its end, the totals
# migrate_stats counts, per cause, per cause/reason, per CPU pair and per
# task; bad input is one line and exit 2.
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

# ---- a FIFO at 500 lines a second ---------------------------------------------

mkfifo("$dir/fifo", 0600) or die "mkfifo: $!";
my $pid = fork() // die;
if (!$pid) {
	# 50 migrations every 100 ms for 4.5 s: 34 of try_to_wake_up and 16
	# of detach_tasks.
	open(my $w, '>', "$dir/fifo") or exit(1);
	$w->autoflush(1);
	$SIG{PIPE} = sub { exit(0) };
	print $w $hdr, sprintf("0x%016x 0 . . 7 5 : paced\n", 1);
	my $ts = 1e9;
	for my $b (1 .. 45) {
		my $s = '';
		for my $i (1 .. 50) {
			$ts += 1000;
			$s .= sprintf("0x%016x 1 0 1 7 %d%s\n", $ts, $i % 3 ? 1 : 2, $i % 3 ? ' 1' : '');
		}
		print $w $s;
		sleep(0.1);
	}
	exit(0);
}
my @out = `$mtop --no-clear --interval 1 --count 3 $dir/fifo 2>&1`;
my $rc = $? >> 8;
kill('TERM', $pid);
waitpid($pid, 0);
is($rc, 0, '--count 3: exits 0 after three redraws');
my @heads = grep { /^migrate_top / } @out;
is(scalar(@heads), 3, 'three screens');
my @rates = map { /interval ([\d.]+) s  ([\d.]+) migrations\/s  total (\d+)/ ? [$1, $2, $3] : [0, 0, 0] } @heads;
# The pace is 500 lines/s; a loaded machine may stretch it: 30 % either way.
for my $i (1, 2) {
	ok($rates[$i][1] > 350 && $rates[$i][1] < 650, "screen " . ($i + 1) . ": about 500 migrations/s ($rates[$i][1])");
}
ok($rates[0][2] < $rates[1][2] && $rates[1][2] < $rates[2][2], "the totals grow: @{[map { $_->[2] } @rates]}");
my ($last) = join('', @out) =~ /((?:^migrate_top .*\n)(?:(?!^migrate_top ).*\n)*)\z/m;
my ($ttwu, $ttwu_all) = $last =~ /^try_to_wake_up\s+([\d.]+)\s+(\d+)$/m;
my ($det, $det_all) = $last =~ /^detach_tasks\s+([\d.]+)\s+(\d+)$/m;
ok($ttwu_all && $det_all && abs($ttwu_all / $det_all - 34 / 16) < 0.05,
   "per cause: 34 wakeups for 16 detaches in 50 ($ttwu_all, $det_all)");
like($last, qr/^try_to_wake_up\/wake_affine\s+[\d.]+\s+$ttwu_all$/m, 'per cause/reason');
like($last, qr/^0 -> 1\s+[\d.]+\s+$rates[2][2]$/m, 'per CPU pair');
like($last, qr/^\s+7 paced\s+[\d.]+\s+$rates[2][2]$/m, 'per task, with its name');

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
open(my $fh, '>', "$dir/trace") or die;
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
my ($mat) = $st =~ /^from\\to \(count\)[^\n]*\n(.*?)\ntotal/ms;
my %pairs;
for (split /\n/, $mat) {
	my ($c, @n) = split;
	$c =~ s/cpu//;
	$pairs{"$c -> $_"} = $n[$_] for grep { $n[$_] } 0 .. 3;
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
	   ['-', "garbage\n", qr/:1: malformed event line/]) {
	open($fh, '>', "$dir/in") or die;
	print $fh $b->[1];
	close($fh);
	my $err = `$mtop --no-clear --count 1 $b->[0] < $dir/in 2>&1 >/dev/null`;
	ok($? >> 8 == 2 && $err =~ $b->[2] && ($err =~ tr/\n//) == 1, "refused with one line: $b->[0] " .
	   ($b->[1] =~ s/\n.*//sr)) or diag($err);
}
done_testing();
