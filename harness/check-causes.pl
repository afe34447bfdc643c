#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Every set_task_cpu()/__set_task_cpu() call in the patched tree must be
# attributed (its function also calls mt_migrate_task()) or excluded in
# harness/cause-exclusions with a reason; and every cause of enum
# mt_cause must be passed somewhere.  Prints TAP.
#
#   check-causes.pl TREE EXCLUSIONS
use strict;
use warnings;

my $P = $0;
$P =~ s@.*/@@g;
my ($tree, $excl_file) = @ARGV;
die "$P: usage: $P TREE EXCLUSIONS\n" unless defined $excl_file;

my %excluded;
open(my $ex, '<', $excl_file) or die "$P: $excl_file: $!\n";
while (<$ex>) {
	next if /^\s*(#|$)/;
	my ($where, $reason) = /^(\S+)\s+(\S.*)$/
		or die "$P: $excl_file:$.: want 'FILE:FUNCTION REASON'\n";
	$excluded{$where} = $reason;
}
close($ex);

my @files = split /\n/, `cd '$tree' && grep -rl --include='*.[ch]' 'set_task_cpu(' .`;
s@^\./@@ for @files;

my (@results, %cause_used, %seen_excl);
for my $file (sort @files) {
	open(my $fh, '<', "$tree/$file") or die "$P: $tree/$file: $!\n";
	my @lines = <$fh>;
	close($fh);

	# Split into functions: a body starts after a line at column 0 that
	# opens with '{' and ends at the next '}' at column 0.
	my ($func, $has_hook, $in_comment) = ('', 0, 0);
	my @calls;
	for my $i (0 .. $#lines) {
		my $l = $lines[$i];
		my $code = $l;
		if ($in_comment) {
			next unless $code =~ s@^.*?\*/@@;
			$in_comment = 0;
		}
		$code =~ s@/\*.*?\*/@@g;
		$code =~ s@//.*@@;
		$in_comment = 1 if $code =~ s@/\*.*@@;

		if ($l =~ /^\{/) {
			# The name is on the line before, or a few lines up.
			for (my $j = $i - 1; $j >= 0 && $j >= $i - 6; $j--) {
				if ($lines[$j] =~ /^\S.*?\b(\w+)\s*\(/) {
					$func = $1;
					last;
				}
			}
			@calls = ();
			$has_hook = 0;
			next;
		}
		if ($l =~ /^\}/ && $func ne '') {
			for my $c (@calls) {
				my $where = "$file:$func";
				if ($has_hook) {
					push @results, [1, "$where:$c attributed"];
				} elsif (exists $excluded{$where}) {
					$seen_excl{$where} = 1;
					push @results, [1, "$where:$c excluded: $excluded{$where}"];
				} else {
					push @results, [0, "$where:$c has no cause (add mt_migrate_task() or an exclusion)"];
				}
			}
			$func = '';
			@calls = ();
			next;
		}
		next if $func eq '';
		$has_hook = 1 if $code =~ /\bmt_migrate_task\s*\(/;
		$cause_used{$1} = 1 while $code =~ /\b(MT_CAUSE_\w+)/g;
		push @calls, $i + 1 if $code =~ /\b(?:__)?set_task_cpu\s*\(/;
	}
}

# Every cause of the enum is passed by some caller.
my $enum = '';
if (open(my $h, '<', "$tree/include/linux/migrate_trace_lite.h")) {
	local $/;
	$enum = <$h>;
	close($h);
}
my ($body) = $enum =~ /enum mt_cause \{(.*?)\};/s;
push @results, [defined $body ? 1 : 0, "include/linux/migrate_trace_lite.h defines enum mt_cause"];
for my $c ($body ? $body =~ /\b(MT_CAUSE_\w+)/g : ()) {
	next if $c eq 'MT_CAUSE_NONE' || $c eq 'MT_CAUSE_END';
	push @results, [$cause_used{$c} ? 1 : 0, "cause $c is passed to a hook"];
}
for my $w (sort keys %excluded) {
	push @results, [$seen_excl{$w} ? 1 : 0, "exclusion $w still matches a call"];
}

print "1.." . scalar(@results) . "\n";
my $n = 0;
for my $r (@results) {
	$n++;
	print(($r->[0] ? "ok" : "not ok") . " $n - $r->[1]\n");
}
