#!/usr/bin/perl
# migrate_stats --topology, --pingpong, --min_count and --min_rate on a
# generated 1.2 trace whose answers this test computes on its own.
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
my $dir = tmpdir();

# 16 CPUs: SMT pairs (core id = the pair's first CPU), 4 CPUs a last-level
# cache, 8 a NUMA node.
my @causes = qw(try_to_wake_up detach_tasks push_rt_task);
my $hdr = "# version 1.2.0\n# nr_cpus 16\n# ts_field 1\n# dropped 0\n# overwritten 0\n" .
	join('', map { "# cause " . ($_ + 1) . " $causes[$_]\n" } 0 .. $#causes) .
	"# loc 4 copy_process\n# loc 5 set_task_comm\n# loc 6 task_list\n# loc 7 mark\n" .
	join('', map { sprintf("# topology %d %d %d %d\n", $_, 2 * int($_ / 2), 4 * int($_ / 4), int($_ / 8)) } 0 .. 15);
sub class {
	my ($f, $t) = @_;
	return 'core' if int($f / 2) == int($t / 2);
	return 'llc' if int($f / 4) == int($t / 4);
	return int($f / 8) == int($t / 8) ? 'cross_llc' : 'cross_node';
}

# Six tasks; task k hops among 3 CPUs of its own (so that ping-pongs
# happen), at a gap of 10 us to 2 ms.
srand(40);
my @cpus = ([0, 1, 2], [3, 4, 8], [5, 9, 13], [6, 7, 15], [10, 11, 14], [12, 0, 9]);
my ($ts, $body, @mig) = (1_000_000_000, '');
$body .= sprintf("0x%016x 0 . . %d 6 : task%d\n", $ts, 200 + $_, $_) for 0 .. 5;
my @on = map { $_->[0] } @cpus;
for (1 .. 4000) {
	my $k = int(rand(6) ** 2 / 6);		# busier low tasks
	my $to = $cpus[$k][int(rand(3))];
	next if $to == $on[$k];
	$ts += 10_000 + int(rand(400_000));
	my $c = int(rand(3));
	push @mig, [$ts, $on[$k], $to, 200 + $k, $causes[$c]];
	$body .= sprintf("0x%016x %d %d %d %d %d 0\n", $ts, $to, $on[$k], $to, 200 + $k, $c + 1);
	$on[$k] = $to;
}
my $trace = write_file('t', $hdr . $body);
my %per_task;
$per_task{$_->[3]}++ for @mig;

# ---- topology ------------------------------------------------------------------

my (%tc, %tt);
for (@mig) {
	my $cl = class($_->[1], $_->[2]);
	$tc{$_->[4]}{$cl}++;
	$tc{total}{$cl}++;
	$tt{$_->[3]}{$cl}++;
}
my ($rc, $out, $err) = run("$stats --topology $trace");
is($rc, 0, '--topology exits 0') or diag($err);
my @classes = qw(core llc cross_llc cross_node);
for my $c (@causes, 'total') {
	my @want = map { $tc{$c}{$_} // 0 } @classes;
	my $sum = 0;
	$sum += $_ for @want;
	like($out, qr/^\Q$c\E\s+@{[join('\s+', @want, $sum)]}$/m, "--topology: $c by class: @want");
}
my @task_rows = $out =~ /^\s+(\d+)((?:\s+\d+){5})\s+task\d$/mg;
my %got;
while (my ($pid, $n) = splice(@task_rows, 0, 2)) {
	$got{$pid} = join(' ', split ' ', $n);
}
is_deeply(\%got, {map { my $p = $_; ($p => join(' ', (map { $tt{$p}{$_} // 0 } @classes), $per_task{$p})) } keys %per_task},
	  '--topology: every task by class, and its total');
my @pids = $out =~ /^\s+(\d+)(?:\s+\d+){5}\s+task\d$/mg;
is_deeply(\@pids, [sort { $per_task{$b} <=> $per_task{$a} || $a <=> $b } keys %per_task], '... busiest first');
(my $notopo = $hdr . $body) =~ s/^# topology .*\n//mg;
($rc, $out, $err) = run("$stats --topology " . write_file('nt', $notopo));
ok($rc == 2 && $err =~ /no '# topology' lines/ && ($err =~ tr/\n//) == 1, 'no topology lines: one clear line, exit 2');

# ---- ping-pong ----------------------------------------------------------------------

sub pingpongs {
	my ($usec, $filter) = @_;
	my (%last, %n, %pair, %task, @back);
	for (grep { $filter->($_) } @mig) {
		my ($t, $f, $to, $pid, $c) = @$_;
		my $l = $last{$pid};
		if ($l && $l->[1] == $to && $l->[2] == $f && $t - $l->[0] <= $usec * 1000) {
			$n{all}++;
			$pair{"$l->[4] $c"}++;
			$task{$pid}++;
			push @back, int(($t - $l->[0]) / 1000);
		}
		$last{$pid} = $_;
	}
	@back = sort { $a <=> $b } @back;
	return ($n{all} // 0, \%pair, \%task, @back ? $back[int((@back - 1) / 2)] : '-');
}
for my $usec (100, 1000) {
	my ($n, $pair, $task, $med) = pingpongs($usec, sub { 1 });
	($rc, $out) = run("$stats --pingpong $usec $trace");
	like($out, qr/^pingpongs $n of ${\ scalar(@mig)} migrations$/m, "--pingpong $usec: $n ping-pongs");
	like($out, qr/^median_return_usec $med$/m, "--pingpong $usec: median return $med us");
	my %gp = map { /^(\w+)\s+(\w+)\s+(\d+)$/ ? ("$1 $2" => $3) : () } grep { !/^cause_out/ } split /\n/, $out;
	is_deeply(\%gp, $pair, "--pingpong $usec: per cause pair");
	my @t = $out =~ /^\s+(\d+)\s+(\d+)\s+task\d$/mg;
	is_deeply({@t}, $task, "--pingpong $usec: per task");
	my @order = map { $t[2 * $_] } 0 .. $#t / 2;
	is_deeply(\@order, [sort { $task->{$b} <=> $task->{$a} || $a <=> $b } keys %$task], '... busiest first');
}
ok((pingpongs(100, sub { 1 }))[0] < (pingpongs(1000, sub { 1 }))[0], 'the two thresholds give different counts');
my ($nf) = pingpongs(1000, sub { $_[0][4] eq 'try_to_wake_up' });
($rc, $out) = run("$stats --pingpong 1000 --cause try_to_wake_up $trace");
like($out, qr/^pingpongs $nf of \d+ migrations$/m, '--pingpong counts among the migrations that pass the filters');

# The period series' pingpong field: ping-pongs per second by the period
# of the return.
my (%pp_per, %last);
for (@mig) {
	my $l = $last{$_->[3]};
	$pp_per{int(($_->[0] - 1e9) / 1e8)}++
		if $l && $l->[1] == $_->[2] && $l->[2] == $_->[1] && $_->[0] - $l->[0] <= 1e6;
	$last{$_->[3]} = $_;
}
($rc, $out) = run("$stats --period 100 --period_all --pingpong 1000 $trace");
my @names = $out =~ /^# field \d+ (.*)$/mg;
is_deeply(\@names, ['migrate', 'pingpong'], '--period with --pingpong: a pingpong field last');
my @rows = grep { !/^#/ } split /\n/, $out;
is_deeply([map { (split)[2] } @rows], [map { sprintf('%.2f', 10 * ($pp_per{$_} // 0)) } 0 .. $#rows],
	  '... ping-pongs per second, period by period (' . scalar(@rows) . ' periods)');

# ---- --min_count and --min_rate ---------------------------------------------------------

my $n_min = (sort { $a <=> $b } values %per_task)[2];	# keeps 4 of 6 tasks
my @keep = grep { $per_task{$_} >= $n_min } keys %per_task;
($rc, $out) = run("$stats --summary_pid --min_count $n_min $trace");
is_deeply([sort { $a <=> $b } $out =~ /^\s+(\d+)\s+\d+\s/mg], [sort { $a <=> $b } @keep],
	  "--min_count $n_min: --summary_pid keeps the tasks with at least $n_min migrations");
my $sum = 0;
$sum += $per_task{$_} for @keep;
($rc, $out) = run("$stats --stats --min_count $n_min < $trace");
like($out, qr/^total\s+$sum\s/m, '--min_count: --stats counts those tasks only (input on stdin, read twice)');
($rc, $out) = run("$stats --migrate --ts_abs --min_count $n_min $trace");
my %is_kept = map { $_ => 1 } @keep;
is($out, join('', map { sprintf("0x%016x %d %d %d %d task%d %s\n", $_->[0], $_->[2], $_->[1], $_->[2], $_->[3],
	$_->[3] - 200, $_->[4]) } grep { $is_kept{$_->[3]} } @mig), '--min_count: --migrate lists those tasks only');
my $nw = grep { $_->[0] >= 1.2e9 && $_->[0] < 1.8e9 && $_->[3] == 200 && $_->[4] eq 'detach_tasks' } @mig;
($rc, $out) = run("$stats --summary_pid --min_count $nw --begin_sec 0.2 --end_sec 0.8 --cause detach_tasks $trace");
like($out, qr/^\s+200\s+$nw\s/m, "--min_count $nw keeps pid 200 with its $nw migrations in the window, after the filters");
$nw++;
($rc, $out) = run("$stats --summary_pid --min_count $nw --begin_sec 0.2 --end_sec 0.8 --cause detach_tasks $trace");
unlike($out, qr/^\s+200\s/m, "--min_count $nw drops it");

my %per;
$per{int(($_->[0] - 1e9) / 1e8)}++ for @mig;
my @all = map { $per{$_} // 0 } 0 .. int(($mig[-1][0] - 1e9) / 1e8) - 1;
my @sorted = sort { $a <=> $b } @all;
my $r = 10 * $sorted[int(@sorted / 2)];
($rc, $out) = run("$stats --period 100 --period_all --min_rate $r $trace");
is_deeply([grep { !/^#/ } split /\n/, $out],
	  [map { sprintf('%d.%03d %.2f', int($_ / 10), ($_ % 10) * 100, 10 * $all[$_]) } grep { 10 * $all[$_] >= $r } 0 .. $#all],
	  "--min_rate $r: only the periods of at least $r migrations/s, whole rows");
($rc, $out, $err) = run("$stats --stats --min_rate 5 $trace");
ok($rc == 2 && $err =~ /--min_rate needs --period/, '--min_rate without --period: refused');
done_testing();
