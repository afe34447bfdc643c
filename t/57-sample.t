#!/usr/bin/perl
# The sample data of doc/sample/ (make sample, harness/mksample.pl): the
# cutter keeps whole lines of the first seconds of a trace and of the
# stat periods that end by then, says so in a '# sample' header line, and
# refuses a missing input naming make run; the shipped trace and stat
# are such a cut of a make run guest (their headers say so), small, and
# every tool reads them without a word on standard error, with counts
# that agree with each other.
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file slurp);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $S = "$top/scripts";
my $mksample = "$top/harness/mksample.pl";
my $dir = tmpdir();
my $c0 = 5_000_000_000;

# ---- the cutter, on a generated run ---------------------------------------------------

# A move every 10 ms for 5 s on 2 CPUs; the stat's 100 ms periods count
# them (the stat starts 50 ms before the trace's first event).
my $t = "# version 1.2.0\n# nr_cpus 2\n# ts_field 1\n# dropped 0\n# cause 1 try_to_wake_up\n" .
	"# loc 2 copy_process\n# loc 3 set_task_comm\n# loc 4 task_list\n# loc 5 mark\n" .
	sprintf("0x%016x 0 . . 10 4 : alpha\n", $c0);
my @ts;
for my $i (1 .. 500) {
	push @ts, $c0 + $i * 10_000_000;
	$t .= sprintf("0x%016x %d %d %d 10 1\n", $ts[-1], $i % 2, 1 - $i % 2, $i % 2);
}
my $s = "# version 1.2.0\n# period_msec 100\n# ts_field 1\n# nr_cpus 2\n# dropped 0\n" .
	sprintf("# sched_clock 0x%016x\n", $c0 - 50_000_000) . "# field 2 try_to_wake_up\n# field 3 migrate\n";
for my $p (0 .. 49) {
	my $n = grep { $_ >= $c0 - 5e7 + $p * 1e8 && $_ < $c0 - 5e7 + ($p + 1) * 1e8 } @ts;
	$s .= sprintf("%d.%03d %d %d\n", $p / 10, ($p % 10) * 100, $n, $n);
}
my ($gt, $gs) = (write_file('gen.trace', $t), write_file('gen.stat', $s));
my ($rc, $out, $err) = run("$mksample --seconds 1 $gt $gs $dir/cut");
is($rc, 0, 'mksample.pl cuts a trace and a stat') or diag($err);
my ($ct, $cs) = (slurp("$dir/cut/trace"), slurp("$dir/cut/stat"));
my @kept = grep { !/^#/ } split /^/, $ct;
my @want = grep { !/^#/ } split /^/, $t;
# The first event at 0, moves at 10 ms .. 990 ms: 1 + 99 lines.
is_deeply(\@kept, [@want[0 .. 99]], 'the trace: its first second, whole lines, unchanged');
like($ct, qr/\A\Q# version 1.2.0\E\n.*^# sample migrate_trace_lite's sample trace: the first 0\.990 s of a make run guest's gen\.trace \(100 events, 99 migrations\)/ms,
     'the trace: its header, then a # sample line that says what it is');
# The stat's periods end at 50, 150, ... ms of the trace; by 990 ms: 10.
my @rows = grep { !/^#/ } split /^/, $cs;
my @all = grep { !/^#/ } split /^/, $s;
is_deeply(\@rows, [@all[0 .. 9]], 'the stat: the 10 periods that end by the trace\'s last event, unchanged');
like($cs, qr/^# sample migrate_trace_lite's sample stat: the first 10 periods of 100 ms/m, 'the stat: a # sample line');
($rc, undef, $err) = run("$S/migrate_stats --stats $dir/cut/trace");
ok($rc == 0 && $err eq '', 'migrate_stats reads the cut trace') or diag($err);
($rc, $out, $err) = run("$mksample --seconds 5 --max_kib 2 $gt $gs $dir/small");
my $size = -s "$dir/small/trace";
ok($rc == 0 && $size <= 2048 && $size > 1536, "--max_kib 2: a trace of $size bytes") or diag($err);
($rc, $out, $err) = run("$mksample $dir/missing.trace $gs $dir/none");
ok($rc != 0 && $err =~ /^mksample\.pl: .*missing\.trace: no such file: make run writes out\/run\/trace/ && !-e "$dir/none",
   'a missing input: refused, naming make run') or diag($err);
put_broken();

# A body line the format refuses stops the cut, naming the line.
sub put_broken {
	my $b = write_file('broken.trace', $t =~ s/^(0x\S+ 1 0 1 10) 1$/$1 9/mr);
	my ($rc, undef, $err) = run("$mksample --seconds 1 $b $gs $dir/broken");
	ok($rc != 0 && $err =~ /broken\.trace:\d+: cause 9 is not in the header/, 'a broken trace: refused, naming its line')
		or diag($err);
}

# ---- the shipped sample ------------------------------------------------------------------

my ($trace, $stat) = map { "$top/doc/sample/$_" } qw(trace stat);
unless (-f $trace && -f $stat) {
	fail('doc/sample/ has no trace and stat: run make run, then make sample, and commit doc/sample/');
	done_testing();
	exit(1);
}
ok(-s $trace <= 300 * 1024 && -s $stat <= 300 * 1024,
   sprintf('the sample is small: trace %.0f KiB, stat %.0f KiB', (-s $trace) / 1024, (-s $stat) / 1024));
my ($th, $sh) = map { join('', grep { /^#/ } split /^/, slurp($_)) } $trace, $stat;
like($th, qr/^# sample migrate_trace_lite's sample trace: the first [\d.]+ s of a make run guest's out\/run\/trace \(\d+ events, \d+ migrations\), cut by make sample/m,
     'the trace\'s header says what it is');
like($sh, qr/^# sample migrate_trace_lite's sample stat: the first \d+ periods of \d+ ms of a make run guest's out\/run\/stat/m,
     'the stat\'s header says what it is');
like($th, qr/^# version 1\.2\.\d+\n(?:.*\n)*# nr_cpus \d+\n(?:.*\n)*# reason \d+ \w+\n(?:.*\n)*# topology /m,
     'the trace is a guest\'s: format 1.2, nr_cpus, reasons, topology');

# Every tool, exit 0, nothing on standard error.
my %cmd = (
	'migrate_stats --stats' => "$S/migrate_stats --stats --summary_pid --topology --pingpong 500 $trace",
	'migrate_stats --period' => "$S/migrate_stats --period 100 --period_all --period_cause $trace",
	'migrate_report' => "$S/migrate_report -o $dir/sample.html $trace $stat",
	'migrate_exporter' => "$S/migrate_exporter --stat $stat --trace $trace -o -",
	'migrate_extract' => "$S/migrate_extract --extract 2 $stat",
	'migrate_ctf' => "$S/migrate_ctf $trace $dir/ctf",
	'migrate_plot --heatmap' => "$S/migrate_plot --heatmap -o $dir/heat.png $trace",
	'migrate_plot --timeline' => "$S/migrate_plot --timeline -o $dir/timeline.png $trace",
	'migrate_top --replay' => "$S/migrate_top --replay --no-clear --interval 1 $trace",
);
my %out;
for my $name (sort keys %cmd) {
	($rc, $out{$name}, $err) = run($cmd{$name});
	# migrate_ctf writes a directory, the others standard output or a file they name.
	ok($rc == 0 && $err eq '' && ($name eq 'migrate_ctf' ? -s "$dir/ctf/metadata" : $out{$name} ne ''),
	   "$name reads the sample") or diag("exit $rc: $err");
}

# The counts agree: migrate_stats, the report, the exporter and the stat.
my ($migs) = $out{'migrate_stats --stats'} =~ /^migrations (\d+) rate/m;
my $lines = grep { /^0x\S+ \d+ \d+ / } split /^/, slurp($trace);
is($migs, $lines, "migrate_stats counts the trace's $lines migration lines");
like(slurp("$dir/sample.html"), qr/<div class="k">migrations<\/div><div class="v">$lines<\/div>/,
     'the report\'s card: the same count');
my $exported = 0;
$exported += $_ for $out{migrate_exporter} =~ /^migrate_trace_lite_migrations_total\{[^}]*\} (\d+)$/mg;
my $stat_migs = 0;
my @f = map { /^# field (\d+) migrate$/ ? $1 : () } split /^/, $sh;
$stat_migs += (split ' ')[$f[0] - 1] for grep { !/^#/ && /\S/ } split /^/, slurp($stat);
ok(@f == 1 && $exported == $stat_migs && $stat_migs > 0,
   "the exporter's migrations_total adds up to the stat's migrate field: $exported = $stat_migs");
done_testing();
