#!/usr/bin/perl
# The rules of a trace, as migrate_stats, migrate_top and migrate_ctf
# apply them: each input here is given to the three, which must agree,
# valid (exit 0, nothing on stderr) or not (exit 2, one line naming the
# fault).  Inputs at the edges: CPUs at nr_cpus - 1 and nr_cpus, nr_cpus
# 8192 and 8193, a migration from a CPU to itself, timestamps of the
# wrong form on a line whose rest was seen before, out of order, a
# repeated header line, CR line ends, an empty input, a pid of 10 digits.
# Then migrate_stats on a valid trace whose series would never end or
# whose header names 8192 CPUs: refused, or bounded, in seconds.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $s = "$top/scripts";
my $dir = tmpdir();

my $hdr = "# version 1.2.0\n# nr_cpus 4\n# ts_field 1\n# cause 1 a\n# cause 2 b\n# loc 3 copy_process\n" .
	"# loc 4 mark\n# reason 1 r\n";
my $ok = "0x0000000100000000 0 . . . start_sched_clock 1700000000 0\n" .
	"0x0000000100000001 0 . . 9 3 : nine\n0x0000000100000002 1 0 1 9 1 1\n";
my $mig = "0x0000000100000003 1 0 1 9 1 1\n";	# the same text after the timestamp

# [name, input, undef if valid or the error's pattern]
my @cases = (
	['a valid trace', $hdr . $ok . $mig, undef],
	['lines ending in CR LF', ($hdr . $ok . $mig) =~ s/\n/\r\n/gr, undef],
	['a pid of 10 digits', $hdr . $ok . "0x0000000100000003 1 0 1 9999999999 1\n", undef],
	['migration to CPU nr_cpus - 1', $hdr . $ok . "0x0000000100000003 3 0 3 9 1\n", undef],
	['migration to CPU nr_cpus', $hdr . $ok . "0x0000000100000003 3 0 4 9 1\n", qr/:12: CPU 4 is beyond the header's nr_cpus 4$/],
	['migration from CPU nr_cpus', $hdr . $ok . "0x0000000100000003 3 4 3 9 1\n", qr/:12: CPU 4 is beyond/],
	['migration logged on CPU nr_cpus', $hdr . $ok . "0x0000000100000003 4 0 3 9 1\n", qr/:12: CPU 4 is beyond/],
	['a mark logged on CPU nr_cpus - 1', $hdr . $ok . "0x0000000100000003 3 . . 9 4 0x00000001\n", undef],
	['a mark logged on CPU nr_cpus', $hdr . $ok . "0x0000000100000003 4 . . 9 4 0x00000001\n", qr/:12: CPU 4 is beyond/],
	['a migration from a CPU to itself', $hdr . $ok . "0x0000000100000003 1 1 1 9 1\n",
	 qr/:12: a migration from CPU 1 to itself$/],
	['a migration from a CPU to itself, its rest seen before', $hdr . $ok . "0x0000000100000003 2 2 2 9 1\n" .
	 "0x0000000100000004 2 2 2 9 1\n", qr/:12: a migration from CPU 2 to itself$/],
	['# nr_cpus 8192, CPU 8191', ($hdr =~ s/nr_cpus 4/nr_cpus 8192/r) . $ok . "0x0000000100000003 1 0 8191 9 1\n", undef],
	['# nr_cpus 8193', ($hdr =~ s/nr_cpus 4/nr_cpus 8193/r) . $ok, qr/:2: bad nr_cpus line$/],
	['# nr_cpus 1000000', ($hdr =~ s/nr_cpus 4/nr_cpus 1000000/r) . $ok, qr/:2: bad nr_cpus line$/],
	['# nr_cpus 0', ($hdr =~ s/nr_cpus 4/nr_cpus 0/r) . $ok, qr/:2: bad nr_cpus line$/],
	['format 2.0.0', ($hdr =~ s/1\.2\.0/2.0.0/r) . $ok, qr/:1: trace format 2\.0\.0 is not 1\.x$/],
	['an empty input', '', qr/:0: no '# version' line before the first event$/],
	['no header', $ok, qr/:1: no '# version' line before the first event$/],
	['timestamps out of order', $hdr . $ok . "0x0000000100000001 1 0 1 9 1 1\n",
	 qr/:12: input is not in time order; sort it first$/],
	['an upper-case timestamp, its rest seen before', $hdr . $ok . "0x000000010000000A 1 0 1 9 1 1\n",
	 qr/:12: malformed event line$/],
	['an upper-case timestamp, its rest new', $hdr . $ok . "0x000000010000000A 2 0 2 9 1 1\n",
	 qr/:12: malformed event line$/],
	['a timestamp without 0x, its rest seen before', $hdr . $ok . "000000000100000003 1 0 1 9 1 1\n",
	 qr/:12: malformed event line$/],
	['a timestamp 0X, its rest seen before', $hdr . $ok . "0X0000000100000003 1 0 1 9 1 1\n",
	 qr/:12: malformed event line$/],
	['a timestamp with an underscore, its rest seen before', $hdr . $ok . "0x00000001000000_3 1 0 1 9 1 1\n",
	 qr/:12: malformed event line$/],
	['a cause number named twice', $hdr . "# cause 1 c\n" . $ok, qr/:9: '# cause 1 c': number 1 is named twice/],
	['a cause named twice', $hdr . "# cause 5 a\n" . $ok, qr/:9: '# cause 5 a': cause a is named twice$/],
	['a cause and an event kind of one number', $hdr . "# loc 2 lost\n" . $ok, qr/:9: '# loc 2 lost': number 2 is named twice/],
	['a reason number named twice', $hdr . "# reason 1 s\n" . $ok, qr/:9: '# reason 1 s': number 1 is named twice$/],
	['a second version line', $hdr . "# version 1.2.0\n" . $ok, qr/:9: a second '# version' line$/],
	['a second nr_cpus line', $hdr . "# nr_cpus 4\n" . $ok, qr/:9: a second '# nr_cpus' line$/],
	['a second topology line of a CPU', $hdr . "# topology 1 0 0 0\n# topology 01 0 0 0\n" . $ok,
	 qr/:10: a second '# topology' line of CPU 1$/],
	['a cause name that is not printable ASCII', $hdr . "# cause 5 caf\xc3\xa9\n" . $ok, qr/:9: bad cause line$/],
	['lines ending in CR alone', ($hdr . $ok) =~ s/\n/\r/gr, qr/:1: a carriage return within the line/],
	['a cause not in the header', $hdr . $ok . "0x0000000100000003 1 0 1 9 3\n", qr/:12: cause 3 is not in the header$/],
	['a reason not in the header', $hdr . $ok . "0x0000000100000003 1 0 1 9 1 2\n", qr/:12: reason 2 is not in the header$/],
	['a mark of 16 hex digits', $hdr . $ok . "0x0000000100000003 3 . . 9 4 0xffffffffffffffff\n", undef],
	['a mark of 17 hex digits', $hdr . $ok . "0x0000000100000003 3 . . 9 4 0x1ffffffffffffffff\n", qr/:12: malformed mark$/],
	['a start clock in the last second of 9999', $hdr . $ok . "0x0000000100000003 1 . . . start_sched_clock 253402300799 999999\n",
	 undef],
	['a start clock in the year 10000', $hdr . $ok . "0x0000000100000003 1 . . . start_sched_clock 253402300800 0\n",
	 qr/:12: malformed start_sched_clock$/],
	['two spaces between fields', $hdr . $ok . "0x0000000100000003 3 . .  9 4 0x00000001\n", qr/:12: malformed event line$/],
	['two spaces in an event of a later kind', $hdr . $ok . "0x0000000100000003 3 . . 9 99 a  b\n",
	 qr/:12: malformed event line$/],
	['a tab in an event of a later kind', $hdr . $ok . "0x0000000100000003 3 . . 9 99 a\tb\n", qr/:12: malformed event line$/],
	['an event of a later kind', $hdr . $ok . "0x0000000100000003 3 . . 9 99 a b\n", undef],
	['a name event without its colon', $hdr . $ok . "0x0000000100000003 3 . . 9 3 nine\n", qr/:12: malformed name event$/],
	['a name of spaces and a colon', $hdr . $ok . "0x0000000100000003 3 . . 9 3 :  a : b \n", undef],
	['# topology of CPU 8191', $hdr . "# topology 8191 8191 8191 1\n" . $ok, undef],
	['# topology of CPU 8192', $hdr . "# topology 8192 0 0 0\n" . $ok, qr/:9: bad topology line$/],
	['# cpu_lost of CPU 8192', $hdr . "# cpu_lost 8192 0 0\n" . $ok, qr/:9: bad cpu_lost line$/],
	['# ts_field 2', ($hdr =~ s/ts_field 1/ts_field 2/r) . $ok, qr/:3: bad ts_field line/],
);
my %cmd = (migrate_stats => "$s/migrate_stats --stats IN", migrate_top => "$s/migrate_top --no-clear IN",
	   migrate_ctf => "$s/migrate_ctf IN $dir/ctf");
for my $c (@cases) {
	my ($name, $text, $re) = @$c;
	my $in = write_file('in', $text);
	for my $tool (sort keys %cmd) {
		my ($rc, $out, $err) = run($cmd{$tool} =~ s/IN/$in/r);
		if (defined $re) {
			ok($rc == 2 && $err =~ /\A$tool: \Q$in\E$re/ && ($err =~ tr/\n//) == 1,
			   "$tool refuses $name with one line") or diag("exit $rc: $err");
		} else {
			ok($rc == 0 && $err eq '', "$tool reads $name") or diag("exit $rc: $err");
		}
	}
}

# ---- migrate_stats: series and matrices that would grow without bound -------------------

# A valid trace whose last timestamp is 2^64 - 1: a series of 1 ms
# periods would have 1.8e13 lines.  One line on stderr, in seconds.
my $far = write_file('far', $hdr . $ok . "0xffffffffffffffff 2 1 2 9 2\n");
my $t0 = time();
my ($rc, $out, $err) = run("timeout 60 $s/migrate_stats --period 1 --period_all $far");
ok($rc == 2 && $err =~ /:12: (\d+) periods of 1 ms without a migration, from 0x\S+ to 0xffffffffffffffff: more than --max_gap 1000000$/ &&
   ($err =~ tr/\n//) == 1, 'a gap of 1.8e13 empty periods: refused with one line naming it') or diag("exit $rc: $err");
ok(time() - $t0 < 30, 'in seconds');
($rc, $out, $err) = run("$s/migrate_stats --period 1 --period_all --min_rate 1 $far");
is("$rc $out", "0 # version 1.2.0\n# period_msec 1000\n# nr_cpus 4\n# ts_field 1\n# field 2 migrate\n" .
   "# gettimeofday 1700000000 000000\n0.000 1000.00\n", '--min_rate drops the empty periods at once: one line');
my $gap = write_file('gap', $hdr . $ok . "0x0000000100a7d8c3 2 1 2 9 2\n");	# 11 ms later
($rc, $out, $err) = run("$s/migrate_stats --period 1 --period_all --max_gap 9 $gap");
is("$rc $err", "2 migrate_stats: $gap:12: 10 periods of 1 ms without a migration, from 0x00000001000f4240 to 0x0000000100a7d8c3: more than --max_gap 9\n",
   '--max_gap 9: a gap of 10 empty periods is refused');
($rc, $out, $err) = run("$s/migrate_stats --period 1 --period_all --max_gap 10 $gap");
is("$rc " . scalar(grep { !/^#/ } split /\n/, $out), '0 11', '--max_gap 10 writes them: the first period and 10 empty ones');

# A header of 8192 CPUs, 3 of which move tasks.
my $big = write_file('big', ($hdr =~ s/nr_cpus 4/nr_cpus 8192/r) . $ok . "0x0000000100000003 1 0 8191 9 1\n");
($rc, $out, $err) = run("$s/migrate_stats --stats $big");
ok($rc == 0 && length($out) < 2000 && $out =~ /^from\\to \(count\) +cpu0 +cpu1 +cpu8191 +total$/m,
   '--stats of a trace of 8192 CPUs: matrices of the 3 that moved tasks') or diag("exit $rc: $err");
($rc, $out, $err) = run("$s/migrate_stats --period 1000 --period_cpu_pair $big");
ok($rc == 2 && $err =~ /--period_cpu_pair: 8192 CPUs make 67108864 fields, more than 65536/ && ($err =~ tr/\n//) == 1,
   '--period_cpu_pair of 8192 CPUs: refused with one line') or diag("exit $rc: $err");
($rc, $out, $err) = run("$s/migrate_stats --period 1000 --period_cpu_pair --max_cpu 255 $big");
ok($rc == 2 && $err =~ /:12: CPU 8191 is beyond --max_cpu 255$/, '... --max_cpu 255 takes 65536 fields, but the trace has CPU 8191')
	or diag("exit $rc: $err");
($rc, $out, $err) = run("$s/migrate_stats --period 1000 --period_cpu $big");
is("$rc " . scalar(() = $out =~ /^# field /mg), '0 16384', '--period_cpu of 8192 CPUs: 16384 fields');
done_testing();
