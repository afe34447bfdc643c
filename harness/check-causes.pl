#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Every set_task_cpu()/__set_task_cpu() call in the patched tree must be
# attributed or excluded in harness/cause-exclusions with a reason; and
# every cause of enum mt_cause must be passed somewhere.  A call is
# attributed when the statement before it (deactivate_task() of the task
# aside) is a hook for the same task and CPU (mt_migrate_task(p, cpu, ...)
# or mt_migrate_task_lb(p, cpu, ...)), or when the CPU it sets is
# mt_placed(p, ...) itself.  An exclusion whose reason starts with
# "callers" holds for a helper whose every call must have a hook for the
# same task right before it.  Prints TAP.
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

# Helpers whose callers report the move: FILE:FUNCTION => [calls].
my %callers;
for my $w (keys %excluded) {
	$callers{$w =~ s/.*://r} = [] if $excluded{$w} =~ /^callers\b/;
}

my @files = split /\n/, `cd '$tree' && grep -rl --include='*.[ch]' 'set_task_cpu(' .`;
s@^\./@@ for @files;

my (@results, %cause_used, %seen_excl);
for my $file (sort @files) {
	open(my $fh, '<', "$tree/$file") or die "$P: $tree/$file: $!\n";
	my @lines = <$fh>;
	close($fh);

	# Split into functions: a body starts after a line at column 0 that
	# opens with '{' and ends at the next '}' at column 0.  Within it,
	# keep the code of each statement (up to ';') without comments.
	my ($func, $in_comment, $stmt, $prev, $hook) = ('', 0, '', '', '');
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
			($stmt, $prev, $hook) = ('', '', '');
			next;
		}
		if ($l =~ /^\}/ && $func ne '') {
			$func = '';
			next;
		}
		next if $func eq '';
		$cause_used{$1} = 1 while $code =~ /\b(MT_CAUSE_\w+)/g;
		$stmt .= $code;
		next unless $stmt =~ /;\s*$/ || $stmt =~ /[{}]\s*$/;
		for my $part (split /(?<=[;{}])/, $stmt) {
			next unless $part =~ /\S/;
			(my $flat = $part) =~ s/\s+/ /g;
			if ($flat =~ /\b((?:__)?set_task_cpu)\s*\(\s*([^,]+?)\s*,\s*(.*)\)\s*;/) {
				my ($call, $task, $cpu) = ($1, $2, $3);
				my $where = "$file:$func";
				my $hooked = $cpu =~ /^mt_placed\(\s*\Q$task\E\s*,/ ||
					     $hook =~ /\bmt_migrate_task(?:_lb)?\s*\(\s*\Q$task\E\s*,\s*\Q$cpu\E\s*,/;
				if ($hooked) {
					push @results, [1, "$where:" . ($i + 1) . " $call($task, ...) attributed (a hook for it right before, or mt_placed)"];
				} elsif (exists $excluded{$where}) {
					$seen_excl{$where} = 1;
					push @results, [1, "$where:" . ($i + 1) . " excluded: $excluded{$where}"];
				} else {
					push @results, [0, "$where:" . ($i + 1) . " $call($task, $cpu) has no hook for it right before (add mt_migrate_task() or an exclusion)"];
				}
			}
			# Calls of helpers that move a task, checked at the end.
			for my $helper (keys %callers) {
				push @{$callers{$helper}}, ["$file:$func:" . ($i + 1), $flat, $hook]
					if $flat =~ /\b\Q$helper\E\s*\(/ && $func ne $helper;
			}
			if ($flat =~ /;/) {
				$prev = $flat;
				# The hook may come before the task leaves its runqueue.
				$hook = $flat unless $flat =~ /^\s*deactivate_task\s*\(/;
			}
		}
		$stmt = '';
	}
}

# Every call of a helper that moves a task has a hook for that task right
# before it (deactivate_task() aside).
for my $helper (sort keys %callers) {
	my @calls = @{$callers{$helper}};
	push @results, [scalar(@calls) ? 1 : 0, "the helper $helper() is called"];
	for my $c (@calls) {
		my ($where, $call, $hook) = @$c;
		my ($task) = $hook =~ /\bmt_migrate_task(?:_lb)?\s*\(\s*([^,]+?)\s*,/;
		my $ok = defined $task && $call =~ /\b\Q$helper\E\s*\([^;]*?(?<![\w>.])\Q$task\E(?![\w])/;
		push @results, [$ok ? 1 : 0, "$where: $helper() " .
			($ok ? "has a hook for its task right before" : "has no hook for its task right before")];
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
# The enum is made from the list MT_CAUSES, one MT_EM(MT_CAUSE_X, N, "x")
# a line: its lines continue with a backslash.
my ($list) = $enum =~ /^#define MT_CAUSES MT_LIST\(((?:.*\\\n)*.*)/m;
$body .= $list if defined $body && defined $list;
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
