#!/usr/bin/perl
# scripts/migrate_ctf: the CTF 1.8 trace it writes is read by babeltrace2,
# which prints the same events as migrate_stats lists from the same trace,
# kind by kind and field by field: migrations (with cause and reason
# names), names (comm events, saved_comm included), marks and lost-events
# records; the clock class puts them at the trace's wall clock.
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my ($ctf, $stats) = map { "$top/scripts/migrate_$_" } qw(ctf stats);
my $dir = tmpdir();

unless (`command -v babeltrace2 2>/dev/null`) {
	print "1..1\nnot ok 1 - babeltrace2 is not installed (harness/deps.txt: babeltrace2)\n";
	exit(1);
}

# A 1.2 trace over 4 CPUs: migrations with causes and reasons, names,
# marks, lost records, an event kind CTF has no class for.
my @causes = qw(try_to_wake_up detach_tasks migration_cpu_stop);
my @reasons = qw(wake_affine affinity);
my $trace = "# version 1.2.0\n# nr_cpus 4\n# ts_field 1\n# dropped 0\n# overwritten 0\n" .
	join('', map { "# cause " . ($_ + 1) . " $causes[$_]\n" } 0 .. 2) .
	"# loc 4 copy_process\n# loc 5 set_task_comm\n# loc 6 task_list\n# loc 7 mark\n# loc 8 lost\n" .
	"# loc 9 saved_comm\n# loc 10 future\n# reason 1 wake_affine\n# reason 2 affinity\n";
my $ts = 0x1_0000_0000;
$trace .= sprintf("0x%016x %d . . . start_sched_clock 1700000000 999999\n", $ts, $_) for 0 .. 3;
srand(41);
my @names = ('init', 'worker thread', "caf\xc3\xa9", 'x');
for my $i (1 .. 3000) {
	$ts += 1 + int(rand(3000));
	my $r = rand();
	my $cpu = int(rand(4));
	if ($r < 0.8) {
		my $from = int(rand(4));
		my $to = ($from + 1 + int(rand(3))) % 4;
		my $re = int(rand(3));
		$trace .= sprintf("0x%016x %d %d %d %d %d%s\n", $ts, $cpu, $from, $to, 100 + int(rand(20)),
				  1 + int(rand(3)), $re ? " $re" : '');
	} elsif ($r < 0.9) {
		$trace .= sprintf("0x%016x %d . . %d %d : %s\n", $ts, $cpu, 100 + int(rand(20)), 4 + int(rand(3)),
				  $names[int(rand(@names))]);
	} elsif ($r < 0.95) {
		$trace .= sprintf("0x%016x %d . . %d 7 0x%08x\n", $ts, $cpu, 1 + int(rand(9)), int(rand(2**32)));
	} elsif ($r < 0.97) {
		$trace .= sprintf("0x%016x %d . . %d 9 : saved%d\n", $ts, $cpu, 100 + int(rand(20)), $i);
	} elsif ($r < 0.99) {
		$trace .= sprintf("0x%016x %d . . 0 8 %d\n", $ts, $cpu, 1 + int(rand(50)));
	} else {
		$trace .= sprintf("0x%016x %d . . 0 10 something new\n", $ts, $cpu);
	}
}
open(my $fh, '>', "$dir/trace") or die;
print $fh $trace;
close($fh);

my ($rc, $out, $err) = run("$ctf $dir/trace $dir/ctf");
ok($rc == 0 && $err eq '', 'migrate_ctf writes the trace') or diag($err);
ok(-s "$dir/ctf/metadata" && (() = glob("$dir/ctf/stream_*")) == 4, 'a metadata file and one stream per CPU');
my $meta = do { local (@ARGV, $/) = ("$dir/ctf/metadata"); <> } // '';
like($meta, qr{\A/\* CTF 1\.8 \*/}, 'the metadata starts with the CTF 1.8 signature');
like($meta, qr/packet\.header := struct \{\s*uint32_t magic;\s*uint8_t uuid\[16\];\s*uint32_t stream_id;/,
     'packet header: magic, uuid, stream id');
like($meta, qr/packet\.context := struct \{.*timestamp_begin;.*timestamp_end;.*content_size;.*packet_size;.*cpu_id;/s,
     'packet context: timestamps and sizes');
my $s0 = do { local (@ARGV, $/) = ("$dir/ctf/stream_0"); binmode(ARGV); <> } // '';
is(unpack('V', $s0), 0xC1FC1FC1, 'a stream starts with the CTF magic');

($rc, $out, $err) = run("babeltrace2 --clock-cycles $dir/ctf");
is($rc, 0, 'babeltrace2 reads it') or diag($err);
my %bt;
for (split /\n/, $out) {
	my ($cyc, $kind, $cpu, $f) = /^\[(\d+)\] \(\S+\) (\w+): \{ cpu_id = (\d+) \}, \{ (.*) \}$/
		or do { push @{$bt{unparsed}}, $_; next };
	my $t = sprintf('0x%016x', $cyc);
	if ($kind eq 'migration') {
		my @v = $f =~ /^from_cpu = (\d+), to_cpu = (\d+), pid = (\d+), cause = \( "(\w+)" : container = \d+ \), reason = \( "(\w+)" : container = \d+ \)$/
			or push @{$bt{unparsed}}, $_;
		push @{$bt{migration}}, "$t $cpu @v";
	} elsif ($kind eq 'comm') {
		my @v = $f =~ /^pid = (\d+), kind = \( "(\w+)" : container = \d+ \), comm = "(.*)"$/
			or push @{$bt{unparsed}}, $_;
		push @{$bt{comm}}, "$t $cpu @v";
	} elsif ($kind eq 'mark') {
		my @v = $f =~ /^pid = (\d+), value = (\d+)$/ or push @{$bt{unparsed}}, $_;
		push @{$bt{mark}}, "$t $cpu @v";
	} elsif ($kind eq 'lost') {
		my @v = $f =~ /^count = (\d+)$/ or push @{$bt{unparsed}}, $_;
		push @{$bt{lost}}, $v[0];
	}
}
is(scalar(@{$bt{unparsed} // []}), 0, 'every line babeltrace2 printed is understood') or diag($bt{unparsed}[0]);

# The same events, listed by migrate_stats.
my @mig = map { my @w = split; "@w[0 .. 4] @w[-2, -1]" } split /\n/, `$stats --migrate --ts_abs $dir/trace 2>/dev/null`;
my @ps = map { /^(\S+ \d+ \d+) (\w+) (.*)$/ ? "$1 $2 $3" : $_ } split /\n/, `$stats --ps --ts_abs $dir/trace 2>/dev/null`;
my @marks = map { my @w = split; "@w[0 .. 2] " . hex($w[3]) } split /\n/, `$stats --mark --ts_abs $dir/trace 2>/dev/null`;
my ($lost_n, $gaps) = `$stats --stats $dir/trace 2>/dev/null` =~ /^lost (\d+) dropped \d+ overwritten \d+ gaps (\d+)$/m;
ok(@mig > 2000 && @ps > 200 && @marks > 100 && $gaps > 20, scalar(@mig) . ' migrations, ' . scalar(@ps) .
   ' names, ' . scalar(@marks) . " marks, $gaps lost records to compare");
for my $k (['migration', \@mig], ['comm', \@ps], ['mark', \@marks]) {
	my ($kind, $want) = @$k;
	is(scalar(@{$bt{$kind} // []}), scalar(@$want), "$kind: babeltrace2 prints as many as migrate_stats lists");
	is_deeply([sort @{$bt{$kind} // []}], [sort @$want], "$kind: the same events, field by field");
}
my $sum = 0;
$sum += $_ for @{$bt{lost} // []};
is(scalar(@{$bt{lost} // []}) . " $sum", "$gaps $lost_n", 'lost: as many records, the same total count');

# The clock class: babeltrace2's wall clock is migrate_stats' --ts_gmt.
($rc, $out) = run("babeltrace2 --clock-gmt --clock-date $dir/ctf");
my ($first) = $out =~ /^\[(\S+ \S+)\] \(\S+\) migration:/m;
my ($want) = `TZ=UTC $stats --migrate --ts_gmt --ts_date $dir/trace 2>/dev/null` =~ /^(\S+ \S+) /;
$want =~ s@/@-@g;
is($first, $want, "the clock's offset gives the trace's wall clock ($want)");

# ---- edges: the start clocks, large pids, a packet filled exactly --------------------

# CPU 0's first start clock says 1700000000.000000 at 1 s of sched clock,
# its second 3 s later a second after that, and CPU 1's a wall clock 5 s
# ahead: the
# clock's offset comes from the lowest CPU's first start clock, so that a
# migration at 3.25 s is at 22:13:22.250000000 UTC.
my $hdr = "# version 1.2.0\n# nr_cpus 2\n# cause 1 a\n# loc 2 mark\n# loc 3 task_list\n# loc 4 lost\n";
open($fh, '>', "$dir/clocks") or die;
print $fh $hdr, "0x000000003b9aca00 0 . . . start_sched_clock 1700000000 0\n",
	"0x000000003b9aca01 1 . . . start_sched_clock 1700000005 0\n",
	"0x0000000077359400 0 . . . start_sched_clock 1700000003 0\n",
	"0x00000000c1b71080 1 0 1 4294967296 1\n0x00000000c1b71081 0 1 0 9999999999 1\n";
close($fh);
($rc, $out, $err) = run("$ctf $dir/clocks $dir/ctf3 && babeltrace2 --clock-gmt --clock-date $dir/ctf3");
is(join(',', map { /^\[(\S+ \S+)\].*pid = (\d+)/ ? "$1 $2" : () } split /\n/, $out),
   '2023-11-14 22:13:22.250000000 4294967296,2023-11-14 22:13:22.250000001 9999999999',
   "the clock's offset is the lowest CPU's first start clock; pids of 2^32 and more are kept") or diag($err);

# Packets of at most 64 KiB: a header and context of 68 bytes, events of
# an id and a timestamp (10 bytes) and their fields: a migration 20, a
# name 9 and its text with a NUL.  2181 migrations and a name of 18
# characters fill 65536 bytes exactly: one packet; one event more (a
# lost record, 18 bytes) makes two.
sub packets {
	my ($file) = @_;
	open(my $s, '<:raw', $file) or return 'none';
	local $/;
	my $d = <$s>;
	my ($n, $pos, @sizes) = (0, 0);
	while ($pos + 68 <= length($d)) {
		last unless unpack('V', substr($d, $pos, 4)) == 0xC1FC1FC1;
		my ($content, $size) = unpack('Q< Q<', substr($d, $pos + 40, 16));
		push @sizes, $size / 8;
		$pos += $size / 8;
	}
	return join(' ', @sizes) . ($pos == length($d) ? '' : ' and a tail');
}
my $body = "0x0000000000000001 0 . . 5 3 : " . ('n' x 18) . "\n" .
	join('', map { sprintf("0x%016x 0 %d %d 5 1\n", 2 + $_, $_ % 2, 1 - $_ % 2) } 0 .. 2180);
open($fh, '>', "$dir/full") or die;
print $fh $hdr, $body;
close($fh);
($rc, $out, $err) = run("$ctf $dir/full $dir/ctf4");
is(packets("$dir/ctf4/stream_0"), '65536', 'events of 65536 bytes with the packet header: one packet, full');
open($fh, '>>', "$dir/full") or die;
print $fh "0x0000000000010000 0 . . 0 4 3\n";
close($fh);
($rc, $out, $err) = run("$ctf $dir/full $dir/ctf4");
is(packets("$dir/ctf4/stream_0"), '65536 86', 'one event more: a second packet for it');
($rc, $out, $err) = run("babeltrace2 $dir/ctf4");
is(scalar(() = $out =~ /\] \(\S+\) (migration|comm|lost):/g), 2183, 'babeltrace2 reads every event of both');

# No '# nr_cpus' line: the metadata's nr_cpus is the highest CPU an event
# names plus one; here CPU 3, a migration's target logged on CPU 2.
open($fh, '>', "$dir/nocpus") or die;
print $fh "# version 1.2.0\n# cause 1 a\n0x0000000000000001 2 0 3 7 1\n0x0000000000000002 0 2 1 7 1\n";
close($fh);
($rc, $out, $err) = run("$ctf $dir/nocpus $dir/ctf5");
my ($nr) = MtTest::slurp("$dir/ctf5/metadata") =~ /\bnr_cpus = (\d+);/;
is($nr // 'none', 4, 'no nr_cpus in the header: the highest CPU named (3) plus one') or diag($err);

# babeltrace2 takes clocks of 2^63 - 2 ns from the origin at most (2^63 - 1,
# INT64_MAX, it refuses): the last timestamp, and with a start clock the
# last timestamp plus the offset, must be within.
my $start = "0x0000000000000000 0 . . . start_sched_clock 1700000000 0\n";
for my $t (['7ffffffffffffffe', '', 0], ['7fffffffffffffff', '', 2, qr/:3: timestamp \d+ is beyond 2\^63 - 2 ns/],
	   ['8000000000000000', '', 2, qr/:3: timestamp \d+ is beyond 2\^63 - 2 ns/],
	   ['ffffffffffffffff', '', 2, qr/:3: timestamp \d+ is beyond 2\^63 - 2 ns/],
	   [sprintf('%016x', 9223372036854775806 - 1700000000 * 10**9), $start, 0],
	   [sprintf('%016x', 9223372036854775807 - 1700000000 * 10**9), $start, 2,
	    qr/: the last timestamp \(\d+ ns\) plus the start clock's offset is beyond 2\^63 - 2 ns/]) {
	my ($ts, $pre, $want, $msg) = @$t;
	open($fh, '>', "$dir/big") or die;
	print $fh "# version 1.2.0\n# cause 1 a\n$pre" . "0x$ts 0 0 1 7 1\n";
	close($fh);
	system("rm -rf $dir/ctf6");
	($rc, $out, $err) = run("($ctf $dir/big $dir/ctf6 && babeltrace2 $dir/ctf6)");
	ok($rc == $want && ($rc ? $err =~ $msg && ($err =~ tr/\n//) == 1 : $out =~ /migration:/),
	   "timestamp 0x$ts" . ($pre ? ' after a start clock' : '') . ': ' .
	   ($want ? 'refused, one line' : 'taken, and babeltrace2 reads it')) or diag($err);
}

# Bad input: one line, exit 2, as the other tools.
open($fh, '>', "$dir/bad") or die;
print $fh "# version 1.2.0\n# cause 1 a\n0x0000000000000001 0 1 2 3 9\n";
close($fh);
($rc, $out, $err) = run("$ctf $dir/bad $dir/ctf2");
ok($rc == 2 && $err =~ /:3: cause 9 is not in the header/ && ($err =~ tr/\n//) == 1, 'an unknown cause: one line, exit 2');
done_testing();
