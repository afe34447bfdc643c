#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Summarize a "prove -v" log: one line per test file with its passed,
# failed and skipped counts, each failed test with the first lines of its
# diagnostics (CI shows the end of the output, not the log), then prove's
# own closing lines, last, as CI reads them.  When prove ran with --timer,
# the slowest passing files come before the failed tests (prove times only
# the files that pass).
#
#   check-summary.pl PROVE-LOG
use strict;
use warnings;

my $P = $0;
$P =~ s@.*/@@g;
my ($log) = @ARGV;
die "$P: usage: $P PROVE-LOG\n" unless defined $log;
open(my $fh, '<', $log) or die "$P: $log: $!\n";

my $MAX_DIAG = 12;		# diagnostic lines kept per failed test
my $MAX_FAILED = 8;		# failed tests shown
my $MAX_SLOW = 5;		# slowest files shown

my (@files, %n, $cur, @tail, $in_tail, @failed, $diag, %ms);
while (my $line = <$fh>) {
	# prove --timer starts each file's line with the time it finished.
	if ($line =~ /^(?:\[[\d:]+\] )?(t\/\S+\.t) \.+\s*(.*)$/) {
		my ($file, $rest) = ($1, $2);
		$cur = $file;
		push @files, $cur;
		$n{$cur} = { pass => 0, fail => 0, skip => 0, note => '' };
		$n{$cur}{note} = $rest if $rest =~ /skipped/;
		next;
	}
	$in_tail = 1 if $line =~ /^(All tests successful|Test Summary Report)/;
	if ($in_tail) {
		push @tail, $line;
		next;
	}
	next unless defined $cur;
	# --timer's result line: "ok   791 ms ( ... CPU)".
	if ($line =~ /^ok\s+(\d+) ms \(/) {
		$ms{$cur} = $1;
		next;
	}
	if ($diag && $line =~ /^\s*#/ && @{$diag} < $MAX_DIAG) {
		push @{$diag}, "      $line";
		next;
	}
	undef $diag unless $line =~ /^\s*#/;
	if ($line =~ /^(\s*)not ok \d+/) {
		# A subtest (a KUnit case) is shown, and counted in its test.
		$n{$cur}{fail}++ unless length($1);
		$diag = [ "  $cur: $line" ];
		push @failed, $diag;
	} elsif ($line =~ /^ok \d+.*#\s*SKIP/i) {
		$n{$cur}{skip}++;
	} elsif ($line =~ /^ok \d+/) {
		$n{$cur}{pass}++;
	}
}
close($fh);

print "\nmake check: per group\n";
for my $f (@files) {
	my $c = $n{$f};
	printf("  %-34s %4d passed %3d failed %3d skipped %s\n", $f, $c->{pass}, $c->{fail},
	       $c->{skip}, $c->{note});
}
if (%ms) {
	my @slow = (sort { $ms{$b} <=> $ms{$a} || $a cmp $b } keys %ms)[0 .. $MAX_SLOW - 1];
	print "\nmake check: slowest passing files (wall clock, prove -j)\n";
	printf("  %-34s %6.0f s\n", $_, $ms{$_} / 1000) for grep { defined } @slow;
}
if (@failed) {
	print "\nmake check: failed tests (first $MAX_FAILED; all in out/check/prove.log)\n";
	print @{$_} for grep { defined } @failed[0 .. $MAX_FAILED - 1];
}
print "\n", @tail;
