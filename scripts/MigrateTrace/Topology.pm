# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Topology - migrate_stats' --topology and --pingpong
#
# How far a migration goes in the machine (within a core, within a
# last-level cache, across LLCs of a node, across nodes; from the 1.2
# '# topology' lines), and ping-pongs: a task's move B to A soon after its
# move A to B.  The reading loop (MigrateTrace::Trace) classifies each new
# migration key with topo_class() and counts each ping-pong it finds: in
# all, per task, per pair of causes (out and back) and per microsecond of
# return time.

package MigrateTrace::Topology;

use strict;
use warnings;
use Exporter qw(import);
use MigrateTrace::Summary qw(sum_by);

our @EXPORT_OK = qw(topo_class topo_classes print_topology print_pingpong pingpong_median);

my @classes = qw(core llc cross_llc cross_node);

# The class names, in the order of their indexes.
sub topo_classes {
	return @classes;
}

# The class of a move from FROM to TO (an index of @classes); TOPO has
# both CPUs: [core, LLC, node].
sub topo_class {
	my ($topo, $from, $to) = @_;
	my ($f, $t) = ($topo->{$from}, $topo->{$to});
	return 0 if $f->[0] == $t->[0];
	return 1 if $f->[1] == $t->[1];
	return $f->[2] == $t->[2] ? 2 : 3;
}

sub print_topology {
	my ($tr) = @_;
	my ($k_combo, $k_cls, $c_cause, $cause_name, $tn, $t_pid, $cls_tn) =
		@$tr{qw(k_combo k_cls c_cause cause_name tn t_pid cls_tn)};
	my $by = sum_by($tr, sub {
		my $c = $cause_name->{$c_cause->[$k_combo->[$_[0]]]};
		my $cl = $classes[$k_cls->[$_[0]]];
		("$c $cl", "total $cl", "total total", "$c total") });

	printf("%-32s" . (" %10s" x 5) . "\n", 'cause', @classes, 'total');
	for my $c ((grep { $by->{"$_ total"} } $tr->cause_order()), 'total') {
		printf("%-32s" . (" %10d" x 5) . "\n", $c, map { $by->{"$c $_"} // 0 } @classes, 'total');
	}
	printf("\n%8s" . (" %10s" x 5) . "  %s\n", 'pid', @classes, 'total', 'names');
	for my $t (sort { $tn->[$b] <=> $tn->[$a] || $t_pid->[$a] <=> $t_pid->[$b] }
		   grep { $tn->[$_] } 0 .. $#$tn) {
		printf("%8d" . (" %10d" x 5) . "  %s\n", $t_pid->[$t], (map { $_->[$t] } @$cls_tn), $tn->[$t],
		       $tr->names_of($t_pid->[$t]));
	}
}

# The lower median of the ping-pongs' return times, each cut to whole
# microseconds; '-' if none.
sub pingpong_median {
	my ($tr) = @_;
	my ($pp_hist, $pp_total) = @$tr{qw(pp_hist pp_total)};
	my $n = 0;

	for my $us (sort { $a <=> $b } keys %$pp_hist) {
		$n += $pp_hist->{$us};
		return $us if $n >= int(($pp_total + 1) / 2);
	}
	return '-';
}

sub print_pingpong {
	my ($tr) = @_;
	my ($pp_causes, $pp_total, $t_pp, $t_pid, $cause_name) =
		@$tr{qw(pp_causes pp_total t_pp t_pid cause_name)};
	my $med = pingpong_median($tr);
	# The migrations: counted per key (kn) with --stats or --topology,
	# else in all (migs); the sum of kn is 0 when it did not count.
	my $migs = 0;
	$migs += $_ for @{$tr->{kn}};
	$migs ||= $tr->{migs};
	printf("pingpong_usec %s\npingpongs %d of %d migrations\nmedian_return_usec %s\n",
	       $tr->{pp_ns} / 1000, $pp_total, $migs, $med);
	printf("\n%-32s %-32s %10s\n", 'cause_out', 'cause_back', 'count');
	for my $k (sort { $pp_causes->{$b} <=> $pp_causes->{$a} || $a cmp $b } keys %$pp_causes) {
		my ($out, $back) = split ' ', $k;
		printf("%-32s %-32s %10d\n", $cause_name->{$out}, $cause_name->{$back}, $pp_causes->{$k});
	}
	printf("\n%8s %10s  %s\n", 'pid', 'count', 'names');
	for my $t (sort { $t_pp->[$b] <=> $t_pp->[$a] || $t_pid->[$a] <=> $t_pid->[$b] }
		   grep { $t_pp->[$_] } 0 .. $#$t_pid) {
		printf("%8d %10d  %s\n", $t_pid->[$t], $t_pp->[$t], $tr->names_of($t_pid->[$t]));
	}
}

1;
