#!/usr/bin/perl
# Every reason is tested, or argued untestable: harness/reasons-tested
# lists each name of the list MT_REASONS (include/linux/migrate_trace_lite.h),
# which mt_reason_names and the trace event are made from, once;
# a selftest it names runs on the guest it names (harness/guest/*.sh)
# and holds the reason's name; a KUnit case it names is in the suite.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "$f: $!\n";
	local $/;
	return scalar <$fh>;
}

my ($table) = slurp("$top/include/linux/migrate_trace_lite.h") =~
	/^#define MT_REASONS MT_LIST\(((?:.*\\\n)*.*)/m;
my @names = ($table // '') =~ /^\s*MT_EM\(MT_REASON_\w+, \d+, "(\w+)"\)/mg;
is(scalar @names, 38, 'the kernel names 38 reasons');

my (%where, %why, %count);
open(my $fh, '<', "$top/harness/reasons-tested") or die "harness/reasons-tested: $!\n";
while (<$fh>) {
	next if /^\s*(#|$)/;
	my ($r, $w, $y) = /^(\S+)\s+(\S+)\s+(\S.*)$/ or do { fail("not a REASON WHERE WHY line: $_"); next };
	$count{$r}++;
	($where{$r}, $why{$r}) = ($w, $y);
}
close($fh);
is(join(' ', sort keys %count), join(' ', sort @names), 'harness/reasons-tested lists exactly those');
is(join(' ', grep { $count{$_} > 1 } sort keys %count), '', 'each once');

my %runs;
for my $g (qw(check topo)) {
	my $sh = slurp("$top/harness/guest/$g.sh");
	$sh =~ s/\\\n//g;
	$runs{$g}{$_} = 1 for map { split ' ' } $sh =~ /^run_tests (.*)$/mg;
}
my $kunit = join('', map { slurp($_) } glob("$top/kernel/migrate_trace_lite*_test.c"));
my $st = "$top/tools/testing/selftests/migrate_trace_lite";
my %tally;
for my $r (@names) {
	my $w = $where{$r} // next;
	my ($kind, $what) = split /:/, $w, 2;
	$tally{$kind eq 'none' ? 'argued' : $kind eq 'retired' ? 'retired' : 'tested'}++;
	if ($kind eq 'check' || $kind eq 'topo') {
		ok($runs{$kind}{$what} && -f "$st/$what.sh" && slurp("$st/$what.sh") =~ /\b\Q$r\E\b/,
		   "$r: $what runs on the $kind guest and names it");
	} elsif ($kind eq 'kunit' || $kind eq 'none' || $kind eq 'retired') {
		ok($kunit =~ /KUNIT_CASE(?:_SLOW)?\(\Q$what\E\)/, "$r: KUnit case $what");
	} else {
		fail("$r: where is '$w'?");
	}
}
diag("$tally{tested} reasons tested on a guest or a real kernel path, $tally{argued} argued, " .
     ($tally{retired} // 0) . " retired");
done_testing();
