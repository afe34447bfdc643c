#!/usr/bin/perl
# harness/bench-scale.pl (make bench's section 9) on synthetic scale.raw
# files: the series by CPU count, the ratios, and each target's PASS or
# MISS at its edge; a missing guest is a MISS that names it.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $dir = tempdir(CLEANUP => 1);

# One -icount guest of CPUS: per-event costs, per-record reads, a stat
# read, the dump's merge, and memory rows.
sub guest {
	my ($cpus, %v) = @_;
	my $f = "$dir/scale-$cpus";
	open(my $fh, '>', $f) or die;
	print $fh "scale info $cpus $cpus 1\n# node0 0-31, cpu0's LLC 0-15, SMT 0-1\n";
	printf $fh "scale event mt %d 10000\n", ($v{mt} // 100) * 10000;
	printf $fh "scale event mstat %d 10000\n", ($v{mstat} // 40) * 10000;
	print $fh "scale event empty 10000 10000\n";
	printf $fh "scale read cat %d 500000 10000\n", ($v{cat} // 1000) * 10000;
	printf $fh "scale read pipe %d 500000 10000\n", ($v{pipe} // 1000) * 10000;
	printf $fh "scale stat %d 20 %d 3 1\n", ($v{stat} // 1000 * $cpus), $v{sent} // 0;
	printf $fh "scale dump %d %d\n", ($v{dump} // 500) * 64 * $cpus, 64 * $cpus;
	print $fh "scale mem $_\n" for @{$v{mem} // []};
	close($fh);
	return $f;
}

sub storm {
	my (@rows) = @_;
	my $f = "$dir/storm";
	open(my $fh, '>', $f) or die;
	print $fh "scale info 64 64 0\n";
	print $fh "scale storm $_\n" for @rows;
	close($fh);
	return $f;
}

sub report { return scalar(`$top/harness/bench-scale.pl @_ 2>&1`); }
sub verdict_of {
	my ($out, $re) = @_;
	my ($line) = grep { /$re/ } split /\n/, $out;
	return $line && $line =~ /(PASS|MISS)/ ? $1 : 'none';
}

my @mem = ('64 64 1024 65300 64', '16 64 1024 16400 16');
my @clean_storm = ('mt 32 100000 100000 0', 'ftrace 32 100000 90000 10000',
		   'mt 4 20000 20000 0', 'ftrace 4 20000 20000 0');
my $out = report(guest(4), guest(16), guest(64, mem => \@mem), storm(@clean_storm));
like($out, qr/^9\. Scale/m, 'section 9');
like($out, qr/^\s+CPUs\s+4\s+16\s+64\s+64\/4$/m, 'a column per CPU count, the ratio of the ends');
like($out, qr/^\s+mt hook, per event\s+100\.0\s+100\.0\s+100\.0\s+1\.000$/m, 'the per-event series');
like($out, qr/cpu0's LLC 0-15/, 'the large guest\'s topology');
my @all = ($out =~ /^\s+target: .*(PASS|MISS)/mg);
is(scalar(@all), 10, 'ten targets');
is_deeply([grep { $_ ne 'PASS' } @all], [], 'all PASS on flat costs, no loss and the memory that follows the online CPUs')
	or diag($out);

# Each target at its edge, one guest's measurement changed.
my %edge = (
	'the mt hook costs the same' => [[mt => 105], [mt => 105.2]],
	'the mstat hook costs the same' => [[mstat => 42], [mstat => 42.2]],
	'cat trace per record' => [[cat => 1500], [cat => 1510]],
	'trace_pipe per record grows' => [[pipe => 3000], [pipe => 3010]],
	'a stat read costs O\(CPUs\)' => [[stat => 16 * 4000], [stat => 16 * 4000 + 40]],
	'the dump\'s time per record' => [[dump => 750], [dump => 755]],
);
for my $t (sort keys %edge) {
	my ($pass, $miss) = @{$edge{$t}};
	for ([$pass, 'PASS'], [$miss, 'MISS']) {
		my ($kv, $want) = @$_;
		my $o = report(guest(4), guest(16), guest(64, mem => \@mem, @$kv), storm(@clean_storm));
		is(verdict_of($o, qr/target: $t/), $want, "$t: 64 CPUs at $kv->[1]: $want");
	}
}
my $o = report(guest(4), guest(16, sent => 1), guest(64, mem => \@mem), storm(@clean_storm));
is(verdict_of($o, qr/sends no IPI/), 'MISS', 'an IPI sent by a stat reader: MISS');
$o = report(guest(4), guest(16), guest(64, mem => ['64 64 1024 65300 64']), storm(@clean_storm));
like($o, qr/more possible than online: MISS \(no guest had more possible/, 'memory with no offline CPU: MISS');
$o = report(guest(4), guest(16), guest(64, mem => ['64 64 1024 65300 64', '16 64 1024 65300 64']),
	    storm(@clean_storm));
is(verdict_of($o, qr/memory follows/), 'MISS', 'memory per possible CPU: MISS');
$o = report(guest(4), guest(16), guest(64, mem => \@mem),
	    storm('mt 32 100000 90000 10001', 'ftrace 32 100000 90000 10000', @clean_storm[2, 3]));
is(verdict_of($o, qr/at most ftrace's/), 'MISS', 'the storm: more lost than ftrace: MISS');
$o = report(guest(4), guest(16), guest(64, mem => \@mem),
	    storm(@clean_storm[0, 1], 'mt 4 20000 19999 1', 'ftrace 4 20000 20000 0'));
is(verdict_of($o, qr/rate ftrace keeps/), 'MISS', 'a loss where ftrace lost nothing: MISS');
$o = report(guest(4), guest(16), guest(64, mem => \@mem), storm(@clean_storm[0, 1]));
like($o, qr/rate ftrace keeps without loss: MISS \(no rate measured/, 'no rate ftrace kept: MISS, said so');
$o = report(guest(4), guest(64, mem => \@mem), "$dir/nothere", storm(@clean_storm));
like($o, qr/MISS: these guests returned no results: \S*nothere/, 'a guest without results: MISS, named');
$o = `$top/harness/bench-scale.pl $dir/nothere 2>&1`;
ok($? >> 8, 'no guest at all: an error');
like($o, qr/^9\. Scale: MISS/m, '... with the section\'s MISS');
done_testing();
