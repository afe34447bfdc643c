#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Every decision about where a task goes notes its reason.  In the
# functions that choose a CPU for a waking or new task (the select_task_rq
# family), each return and each assignment of the chosen CPU must go
# through mt_noted() (or be followed by mt_note()), unless it only keeps
# the task's CPU, as harness/reason-exclusions lists with a reason; and
# every reason of enum mt_reason is noted or inferred somewhere: produced
# by code, which the enum and the tables that only name a reason are not.
# Prints TAP.
#
#   check-reasons.pl TREE EXCLUSIONS
use strict;
use warnings;

my $P = $0;
$P =~ s@.*/@@g;
my ($tree, $excl_file) = @ARGV;
die "$P: usage: $P TREE EXCLUSIONS\n" unless defined $excl_file;

# FILE => { FUNCTION => the variable that holds the chosen CPU }
my %decisions = (
	'kernel/sched/fair.c' => { select_idle_sibling => '', select_task_rq_fair => 'new_cpu' },
	'kernel/sched/rt.c' => { select_task_rq_rt => 'cpu' },
	'kernel/sched/deadline.c' => { select_task_rq_dl => 'cpu' },
	'kernel/sched/core.c' => { select_task_rq => 'cpu' },
);

my %excluded;
open(my $ex, '<', $excl_file) or die "$P: $excl_file: $!\n";
while (<$ex>) {
	next if /^\s*(#|$)/;
	my ($where, $what, $reason) = /^(\S+)\s+'([^']+)'\s+(\S.*)$/
		or die "$P: $excl_file:$.: want FILE:FUNCTION 'STATEMENT' REASON\n";
	$excluded{"$where $what"} = $reason;
}
close($ex);

# A file's text; nothing for a file the tree lacks (the pristine tree).
sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or return '';
	local $/;
	return scalar <$fh>;
}

# The body of FUNC in TEXT: from a '{' at column 0 after a line naming
# it (a few lines up) to the next '}' at column 0.
sub function_body {
	my ($text, $func) = @_;
	my @lines = split /\n/, $text;
	for my $i (0 .. $#lines) {
		next unless $lines[$i] eq '{';
		my $named = 0;
		for (my $j = $i - 1; $j >= 0 && $j >= $i - 4; $j--) {
			$named = 1, last if $lines[$j] =~ /^(?:\w.*)?\b\Q$func\E\s*\(/;
			last if $lines[$j] =~ /^[{}]/;
		}
		next unless $named;
		my @body;
		for my $k ($i + 1 .. $#lines) {
			return join("\n", @body) if $lines[$k] eq '}';
			push @body, $lines[$k];
		}
	}
	return undef;
}

# The reasons TEXT produces: not the enum that names them all, nor the
# table of names ([MT_REASON_X] = "x"), a comparison (== or !=
# MT_REASON_X) or a case label, which read one; comments aside.
sub produced {
	my ($text) = @_;
	$text =~ s@/\*.*?\*/@@gs;
	$text =~ s@//[^\n]*@@g;
	$text =~ s/enum mt_reason \{.*?\};//s;
	$text =~ s/^#define MT_REASONS MT_LIST\((?:.*\\\n)*.*//m;
	$text =~ s/(?:[=!]=\s*|\bcase\s+)MT_REASON_\w+//g;
	$text =~ s/MT_REASON_\w+\s*[=!]=//g;
	return $text =~ /(?<!\[)\b(MT_REASON_\w+)\b(?!\])/g;
}

my (@results, %seen_excl, %used);
for my $file (sort keys %decisions) {
	my $text = slurp("$tree/$file");
	$used{$_} = 1 for produced($text);
	$text =~ s@/\*.*?\*/@@gs;
	$text =~ s@//[^\n]*@@g;
	for my $func (sort keys %{$decisions{$file}}) {
		my $var = $decisions{$file}{$func};
		my $body = function_body($text, $func);
		unless (defined $body) {
			push @results, [0, "$file:$func not found"];
			next;
		}
		my @stmts = map { s/\s+/ /gr =~ s/^ //r } split /(?<=;)/, $body;
		for my $k (0 .. $#stmts) {
			my $s = $stmts[$k];
			my $decides = $s =~ /\breturn\b\s*[^;]/ ||
				      ($var ne '' && $s =~ /(?:^|[\s;{}])\Q$var\E\s*=[^=]/);
			next unless $decides;
			(my $what = $s) =~ s/^.*?(\breturn\b|\Q$var\E\s*=)/$1/;
			$what =~ s/\s*;$//;
			my $where = "$file:$func";
			if ($s =~ /\bmt_noted\s*\(/ ||
			    ($k < $#stmts && $stmts[$k + 1] =~ /^\s*mt_note\s*\(/)) {
				push @results, [1, "$where: '$what' notes its reason"];
			} elsif (exists $excluded{"$where $what"}) {
				$seen_excl{"$where $what"} = 1;
				push @results, [1, "$where: '$what' excluded: " . $excluded{"$where $what"}];
			} else {
				push @results, [0, "$where: '$what' decides without noting a reason (mt_noted() or an exclusion)"];
			}
		}
	}
}

# Every reason is noted in the scheduler, or inferred by the hooks (their
# slow paths, and the inline ones of the header).
my $h = slurp("$tree/include/linux/migrate_trace_lite.h");
$used{$_} = 1 for produced(slurp("$tree/kernel/migrate_trace_lite.c")), produced($h);
my ($body) = $h =~ /enum mt_reason \{(.*?)\};/s;
push @results, [defined $body ? 1 : 0, "include/linux/migrate_trace_lite.h defines enum mt_reason"];
# The enum is made from the list MT_REASONS, one MT_EM(MT_REASON_X, N, "x")
# a line; the load balancer's, computed from MT_REASON_LB_FIRST, are
# produced with it.
my ($list) = $h =~ /^#define MT_REASONS MT_LIST\(((?:.*\\\n)*.*)/m;
my @listed = ($list // '') =~ /^\s*MT_EM\((MT_REASON_\w+),.*$/mg;
# A retired reason keeps its number and name (the formats list it) but
# names no move: its list line says "retired", and no code produces it.
my %retired = map { $_ => 1 } ($list // '') =~ /^\s*MT_EM\((MT_REASON_\w+),[^)]*\),?\s*\/\*\s*retired\b/mg;
for my $r (($body ? $body =~ /^\s*(MT_REASON_\w+)/mg : ()), grep { !/^MT_REASON_LB_/ } @listed) {
	next if $r =~ /^MT_REASON_(NONE|END|LB_LAST)$/;
	if ($retired{$r}) {
		push @results, [$used{$r} ? 0 : 1, "retired reason $r is produced nowhere"];
		next;
	}
	push @results, [$used{$r} ? 1 : 0, "reason $r is noted or inferred"];
}
for my $w (sort keys %excluded) {
	push @results, [$seen_excl{$w} ? 1 : 0, "exclusion $w still matches a statement"];
}

print "1.." . scalar(@results) . "\n";
my $n = 0;
for my $r (@results) {
	$n++;
	print(($r->[0] ? "ok" : "not ok") . " $n - $r->[1]\n");
}
