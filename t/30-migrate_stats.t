#!/usr/bin/perl
# scripts/migrate_stats on a generated trace whose counts are known, its
# refusals of bad input, and agreement with the guest's real trace.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use File::Path qw(make_path);
use File::Copy qw(copy);

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib dirname(abs_path($0));
use MtTest qw(guest_file);
my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $tool = "$top/scripts/migrate_stats";
my $dir = tempdir(CLEANUP => 1);

sub run {
	my ($args, $input) = @_;
	my $in = "$dir/in";
	open(my $fh, '>', $in) or die;
	print $fh $input;
	close($fh);
	my $out = `$tool $args $in 2>$dir/err`;
	my $rc = $? >> 8;
	my $err = do { local (@ARGV, $/) = ("$dir/err"); <> };
	return ($rc, $out, $err);
}

# A trace with random migrations; the expected counts kept on the side.
my @causes = qw(try_to_wake_up wake_up_new_task detach_tasks);
my $hdr = "# version 1.1.0\n# nr_cpus 4\n# ts_field 1\n# dropped 0\n" .
	join('', map { "# cause " . ($_ + 1) . " $causes[$_]\n" } 0 .. $#causes) .
	"# loc 4 copy_process\n# loc 5 set_task_comm\n# loc 6 task_list\n# loc 7 mark\n";
srand(42);
my ($ts, $body, %by_cause, %by_pair, %by_pid, %rows) = (1_000_000, '');
$body .= sprintf("0x%016x 0 . . 100 4 : worker one\n", $ts);
for (1 .. 5000) {
	$ts += 1 + int(rand(1000));
	my ($from, $to) = (int(rand(4)), int(rand(3)));
	$to++ if $to >= $from;
	my $k = int(rand(3));
	my $pid = 100 + int(rand(5));
	$body .= sprintf("0x%016x %d %d %d %d %d\n", $ts, $to, $from, $to, $pid, $k + 1);
	$by_cause{$causes[$k]}++;
	$by_pair{"$from $to"}++;
	$by_pid{$pid}++;
	my $rel = $ts - 1_000_000;
	push @{$rows{$pid}}, sprintf("%d.%09d %d %d %d %d %s %s\n", int($rel / 1e9), $rel % 1e9, $to, $from, $to, $pid,
				    $pid == 100 ? 'worker one' : '?', $causes[$k]);
}
$body .= sprintf("0x%016x 1 . . 1 7 0x0000002a\n", $ts + 1);
$body .= sprintf("0x%016x 1 . . 1 99 some future event kind\n", $ts + 2);
my $trace = $hdr . $body;

my ($rc, $out, $err) = run('--stats', $trace);
is($rc, 0, '--stats exits 0') or diag($err);
for my $c (@causes) {
	like($out, qr/^\Q$c\E\s+$by_cause{$c}\s/m, "--stats counts $c");
}
like($out, qr/^total\s+5000\s/m, '--stats total is 5000');
my ($row1) = $out =~ /^from\\to \(count\).*?\ncpu1\s+(.*?)\n/ms;
my @row1 = split ' ', $row1 // '';
is_deeply([@row1[0 .. 3]], [map { $by_pair{"1 $_"} // 0 } 0 .. 3], 'matrix row cpu1 matches');

($rc, $out) = run('--summary_pid', $trace);
my %got = map { /^\s*(\d+)\s+(\d+)/ ? ($1 => $2) : () } split /\n/, $out;
delete $got{pid};
is_deeply(\%got, \%by_pid, '--summary_pid counts every pid');
like($out, qr/^\s*100\s+\d+\s+\S+\s+worker one$/m, '--summary_pid names a pid with spaces in its comm');

($rc, $out) = run('--stats --cause detach_tasks --cpu_from 2', $trace);
my $want = grep { 1 } ($body =~ /^0x\S+ \d+ 2 \d+ \d+ 3$/mg);
like($out, qr/^total\s+$want\s/m, 'filters --cause and --cpu_from are ANDed');

($rc, $out) = run('--migrate --pid 101', $trace);
is($out, join('', @{$rows{101}}), "--migrate --pid lists that pid's $by_pid{101} migrations only, whole rows");
($rc, $out) = run('--migrate --pid 100', $trace);
is($out, join('', @{$rows{100}}), '--migrate --pid 100: its name with a space in every row');

my @bad = (
	['unsorted input', '--stats', $hdr . join("\n", reverse split /\n/, $body) . "\n", qr/not in time order/],
	['major version 2', '--stats', ($trace =~ s/version 1.1.0/version 2.0.0/r), qr/not 1\.x/],
	['malformed line', '--stats', $hdr . "0xzz 1 2\n", qr/:\d+: malformed/],
	['a line shorter than a timestamp', '--stats', $hdr . "0 1\n", qr/:\d+: malformed event line$/],
	['a short line that begins with 0', '--stats', $hdr . "0 . . 62 0 : task6\n",
	 qr/:\d+: malformed event line$/],
	['unknown cause filter', '--stats --cause nosuch', $trace, qr/unknown cause 'nosuch'/],
	['contradictory filters', '--stats --pid 5 --pid_exclude 5', $trace, qr/contradict/],
	['no output option', '', $trace, qr/nothing to do/],
	['no header', '--stats', $body, qr/no '# version' line/],
);
for my $b (@bad) {
	my ($name, $args, $in, $re) = @$b;
	($rc, $out, $err) = run($args, $in);
	ok($rc != 0 && $err =~ $re && ($err =~ tr/\n//) == 1, "refused with one line: $name")
		or diag("rc=$rc err=$err");
}

# The script finds its modules (scripts/MigrateTrace/) next to its real
# path: run from another directory, through symlinks, relative to the
# current directory, and from a copy laid out as a kernel tree, it prints
# the same.
{
	my $tr = "$dir/trace";
	open(my $fh, '>', $tr) or die;
	print $fh $trace;
	close($fh);
	my $want = `$tool --stats --summary_pid --period 1 --period_all --pingpong 1 --migrate $tr 2>&1`;
	my $linux = "$dir/linux";
	make_path("$linux/scripts/MigrateTrace", "$dir/bin", "$dir/link");
	copy("$top/scripts/migrate_stats", "$linux/scripts/migrate_stats") or die;
	chmod(0755, "$linux/scripts/migrate_stats");
	copy($_, "$linux/scripts/MigrateTrace/") or die for glob("$top/scripts/MigrateTrace/*.pm");
	# The links keep the name: errors and warnings begin with it.
	symlink($tool, "$dir/bin/migrate_stats") or die;
	symlink("$linux/scripts/migrate_stats", "$dir/link/migrate_stats") or die;
	symlink("$dir/link/migrate_stats", "$dir/migrate_stats") or die;
	my @ways = (['from /', "cd / && $tool"], ['through a symlink, from /', "cd / && $dir/bin/migrate_stats"],
		    ['relative to the current directory', "cd $top && ./scripts/migrate_stats"],
		    ['by perl', "cd / && perl $tool"],
		    ['from a kernel tree', "cd / && $linux/scripts/migrate_stats"],
		    ['from a kernel tree, in its scripts/', "cd $linux/scripts && ./migrate_stats"],
		    ['from a kernel tree through two symlinks', "cd $dir/bin && ../migrate_stats"]);
	for my $w (@ways) {
		my ($name, $cmd) = @$w;
		my $got = `$cmd --stats --summary_pid --period 1 --period_all --pingpong 1 --migrate $tr 2>&1`;
		is($got, $want, "modules found, the same output: $name");
	}
	like($want, qr/^# field 2 migrate\n# field 3 pingpong\n.*^duration_sec .*^ +pid +count/ms,
	     'the modules answer: series, ping-pongs, summaries');
}

# ---- losses reported only in the body --------------------------------------------------
# A stream of trace_pipe has no dropped or overwritten line: its lost lines
# alone (4 and 3, kind 7) are the losses --stats prints.
($rc, $out, $err) = run('--stats', "# version 1.2.0\n# nr_cpus 2\n# cause 1 a\n# loc 7 lost\n" .
			"0x0000000000000001 0 0 1 5 1\n0x0000000000000002 1 . . 0 7 4\n" .
			"0x0000000000000003 0 . . 0 7 3\n");
ok($rc == 0 && $out =~ /^lost 7 dropped 0 overwritten 0 gaps 2$/m &&
   $err eq "migrate_stats: warning: the trace lost 7 events (dropped 0, overwritten 0; 2 gaps)\n",
   'lost lines without a header count: --stats and the warning give 7 in 2 gaps') or diag("$out$err");

# ---- a series of no period --------------------------------------------------------
# A trace of a header alone, and a window that never begins: the series'
# header, a stat of no period that migrate_extract reads (nothing, exit 0).
for my $c (['a header-only trace', '', "# version 1.2.0\n# nr_cpus 4\n# cause 1 a\n"],
	   ['a window that never begins', '--begin_mark 9 ',
	    "# version 1.2.0\n# nr_cpus 4\n# cause 1 a\n0x0000000000000001 0 0 1 7 1\n"]) {
	my ($name, $opts, $text) = @$c;
	($rc, $out, $err) = run("--period 5 --period_all $opts", $text);
	is("$rc $out$err", "0 # version 1.2.0\n# period_msec 1000\n# nr_cpus 4\n# ts_field 1\n# field 2 migrate\n",
	   "$name, --period 5 --period_all: the series' header alone");
	open(my $fh, '>', "$dir/series") or die;
	print $fh $out;
	close($fh);
	my $x = `$top/scripts/migrate_extract --extract 2 $dir/series 2>&1`;
	is("$? $x", '0 ', "$name: migrate_extract reads it, no period");
}

# ---- several files: one trace, under the first file's header -------------------
# A later file's header may repeat the first's (or be absent); one that
# names a cause, reason or kind otherwise, or another nr_cpus, is refused
# with one line: its events would be counted under the first's names.
{
	my $h1 = "# version 1.2.0\n# nr_cpus 4\n# cause 1 try_to_wake_up\n# cause 2 detach_tasks\n" .
		"# reason 1 wake_affine\n";
	my $e = sub { sprintf("0x%016x 0 0 1 7 %d\n", @_) };
	open(my $fh, '>', "$dir/one") or die;
	print $fh $h1 . $e->(1, 1) . $e->(2, 2);
	close($fh);
	for my $c (['the same header', $h1, ''],
		   ['no header', '', ''],
		   ['causes swapped', $h1 =~ s/1 try_to_wake_up\n# cause 2 detach_tasks/1 detach_tasks\n# cause 2 try_to_wake_up/r,
		    "cause 1 is 'detach_tasks' here, 'try_to_wake_up' there"],
		   ['a cause more', $h1 . "# cause 3 push_rt_task\n", "cause 3 is 'push_rt_task' here, not named there"],
		   ['a reason renamed', $h1 =~ s/wake_affine/idle_cpu/r, "reason 1 is 'idle_cpu' here, 'wake_affine' there"],
		   ['nr_cpus 8', $h1 =~ s/nr_cpus 4/nr_cpus 8/r, "nr_cpus is '8' here, '4' there"]) {
		my ($name, $h2, $why) = @$c;
		($rc, $out, $err) = run("--stats $dir/one", $h2 . $e->(3, 1) . $e->(4, 1));
		if ($why) {
			is("$rc $err", "2 migrate_stats: $dir/in: its header contradicts that of $dir/one: $why\n",
			   "a second file with $name: refused, one line");
		} else {
			ok($rc == 0 && $out =~ /^try_to_wake_up\s+3\s/m && $out =~ /^detach_tasks\s+1\s/m,
			   "a second file with $name: its events counted with the first's") or diag("$out$err");
		}
	}
	# A bad line of the second file is named by its own line number.
	($rc, $out, $err) = run("--stats $dir/one", $h1 . "garbage\n");
	like($err, qr/^migrate_stats: \Q$dir\E\/in:6: malformed event line$/, 'the second file\'s lines counted from 1');
}

# The guest's real trace: totals agree with a plain count of its lines.
# make check's guest leaves it; run alone without it, one plain failure
# says so (MtTest::guest_file).
if (my $real = guest_file("$top/out/check/trace")) {
	my $n = `grep -v '^#' $real | awk '\$3 != "."' | wc -l` + 0;
	my $s = `$tool --stats $real`;
	like($s, qr/^total\s+$n\s/m, "real trace: --stats total equals its $n migration lines");
}
done_testing();
