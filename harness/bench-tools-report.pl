#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# The analysis tools' benchmark table from bench-tools.sh's raw lines:
# per option set the least CPU time over the rounds, events per second,
# the median peak memory, the ratio to the floor's least CPU time (the
# floor measured in the same run) and PASS/MISS against 2 x the floor;
# listings are reported without a target.  The least time, not the
# median: the runs are deterministic, and what the host's other load
# does to them only ever adds time (medians of 3 rounds moved a set from
# 1.5 to 2.4 x between runs on a loaded 2-core host).
#
#   bench-tools-report.pl RAW
#
# RAW lines: 'info events N bytes B cpus C rounds R date D',
# 'floor ROUND CPU_SEC KIB', 'run ROUND CPU_SEC KIB OPTIONS...',
# 'quarter ROUND CPU_SEC KIB' (--stats --summary_pid on N/4 events).
use strict;
use warnings;

my $P = $0;
$P =~ s@.*/@@g;
my $TARGET = 2;
my ($raw) = @ARGV;
die "$P: usage: $P RAW\n" unless defined $raw;
open(my $fh, '<', $raw) or die "$P: $raw: $!\n";

my (%info, @floor, @floor_kib, %cpu, %kib, @order, @quarter);
while (<$fh>) {
	my @w = split;
	next unless @w;
	if ($w[0] eq 'info') {
		%info = @w[1 .. $#w];
	} elsif ($w[0] eq 'floor' && @w == 4) {
		push @floor, $w[2];
		push @floor_kib, $w[3];
	} elsif ($w[0] eq 'quarter' && @w == 4) {
		push @quarter, $w[3];
	} elsif ($w[0] eq 'run' && @w >= 5) {
		my $name = join(' ', @w[4 .. $#w]);
		push @order, $name unless $cpu{$name};
		push @{$cpu{$name}}, $w[2];
		push @{$kib{$name}}, $w[3];
	}
}
close($fh);
die "$P: $raw holds no measurements\n" unless @floor && %cpu && $info{events};

sub least {
	my @v = sort { $a <=> $b } @{$_[0] // []};
	return $v[0];
}

sub median {
	my @v = sort { $a <=> $b } @{$_[0] // []};
	return undef unless @v;
	return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

my $n = $info{events};
my $f = least(\@floor);
printf("migrate_stats on %d generated migrations (format 1.2, %.0f MB), %s CPUs, %s\n",
       $n, ($info{bytes} // 0) / 1e6, $info{cpus} // '?', $info{date} // '');
printf("least CPU time of %d interleaved rounds; the floor, perl -ne '\@f = split' over the same file:\n",
       scalar(@floor));
printf("%.2f s CPU, %.0f events/s, %d KiB peak; target: every option set <= %d x the floor\n\n",
       $f, $n / $f, median(\@floor_kib), $TARGET);
printf("%-48s %7s %11s %9s %8s  %s\n", 'option set', 'CPU s', 'events/s', 'KiB peak', 'x floor', 'target');
my ($pass, $miss) = (0, 0);
for my $name (@order) {
	my $c = least($cpu{$name});
	my $ratio = $c / $f;
	my $listing = $name =~ /^--migrate\b/;
	my $v = $listing ? '(a listing: no target)' : $ratio <= $TARGET ? 'PASS' : 'MISS';
	$listing ? 1 : $ratio <= $TARGET ? $pass++ : $miss++;
	printf("%-48s %7.2f %11.0f %9d %8.2f  %s\n", $name, $c, $n / $c, median($kib{$name}), $ratio, $v);
}
printf("\n%d of %d option sets within %d x the floor%s\n", $pass, $pass + $miss, $TARGET,
       $miss ? ": $miss MISS" : '');
if (@quarter && $kib{'--stats --summary_pid'}) {
	printf("memory: --stats --summary_pid peaks at %d KiB on %d events and %d KiB on %d\n",
	       median(\@quarter), $n / 4, median($kib{'--stats --summary_pid'}), $n);
}
