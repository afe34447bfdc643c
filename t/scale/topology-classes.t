#!/usr/bin/perl
# make check-scale: the topology classes on the 64-CPU guest.  The
# header's topology lines describe 2 NUMA nodes of 2 LLCs of 8 cores of
# 2 SMT threads; each move of mt_smt's and mt_topology's traces is put in
# its class from them (core: SMT siblings, llc: another core of the LLC,
# cross_llc: another LLC of the node, cross_node), every class occurs,
# and each reason that mt_smt's workloads force lands in the class its
# placement implies: idle_smt_sibling in the core, idle_core and
# idle_cpu in the LLC, the balance by utilization across the nodes.
# migrate_stats --topology counts the same classes, cause by cause.
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib dirname(abs_path($0)) . '/..';
use MtTest;

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/../..');
my @traces = MtTest::guest_file(map { "$top/out/check-scale/$_" } qw(smt topology))
	or done_testing(), exit;

my (%topo, %class, %by_reason, %by_cause, %smt_reason);
for my $t (@traces) {
	my (%cause, %reason, %cpu);
	open(my $fh, '<', $t) or die "$t: $!\n";
	while (<$fh>) {
		if (/^# topology (\d+) (-?\d+) (-?\d+) (-?\d+)$/) {
			$cpu{$1} = [$2, $3, $4];
			next;
		}
		$cause{$1} = $2, next if /^# cause (\d+) (\S+)$/;
		$reason{$1} = $2, next if /^# reason (\d+) (\S+)$/;
		next if /^#/;
		my @f = split;
		next if $f[2] eq '.' || $f[2] == $f[3];
		my ($a, $b) = @cpu{@f[2, 3]};
		next unless $a && $b;
		my $c = $a->[0] == $b->[0] ? 'core' : $a->[1] == $b->[1] ? 'llc' :
			$a->[2] == $b->[2] ? 'cross_llc' : 'cross_node';
		$class{$c}++;
		my $cn = $cause{$f[5]} // $f[5];
		$by_cause{$cn}{$c}++;
		my $rn = $cn . '/' . ($reason{$f[6]} // $f[6]);
		$by_reason{$rn}{$c}++;
		# mt_smt's wakees sleep in the LLC of node 0's first CPU, and
		# only it is allowed them: their wakeups' scans stay there.
		$smt_reason{$rn}{$c}++ if $t =~ m@/smt$@ && $a->[1] == $cpu{0}[1];
	}
	close($fh);
	%topo = %cpu unless %topo;
	is_deeply(\%cpu, \%topo, "$t: the same topology lines as the first trace");
}

# The machine: 64 CPUs, 2 nodes, 4 LLCs of 16 CPUs (2 a node), 32 cores
# of 2 threads, each core in one LLC and each LLC in one node.
my (%llc, %node, %core, %llc_node, %core_llc);
for my $c (keys %topo) {
	my ($co, $l, $n) = @{$topo{$c}};
	$core{$co}++;
	$llc{$l}++;
	$node{$n}++;
	$llc_node{$l}{$n} = 1;
	$core_llc{$co}{$l} = 1;
}
is(scalar(keys %topo), 64, '64 CPUs have a topology line');
is_deeply([sort { $a <=> $b } values %node], [32, 32], '2 nodes of 32 CPUs');
is_deeply([sort { $a <=> $b } values %llc], [16, 16, 16, 16], '4 LLCs of 16 CPUs');
is(scalar(grep { keys %{$llc_node{$_}} != 1 } keys %llc_node), 0, 'each LLC in one node');
my %per_node;
$per_node{(keys %{$llc_node{$_}})[0]}++ for keys %llc_node;
is_deeply([sort values %per_node], [2, 2], '2 LLCs in each node');
is_deeply([sort { $a <=> $b } values %core], [(2) x 32], '32 cores of 2 SMT threads');
is(scalar(grep { keys %{$core_llc{$_}} != 1 } keys %core_llc), 0, 'each core in one LLC');

# The classes, and the reasons mt_smt forces, each in its class.
note(join(', ', map { "$_ " . ($class{$_} // 0) } qw(core llc cross_llc cross_node)));
for my $c (qw(core llc cross_llc cross_node)) {
	ok($class{$c}, "moves of class $c");
}
my %want = ('try_to_wake_up/idle_smt_sibling' => 'core', 'try_to_wake_up/idle_core' => 'llc',
	    'try_to_wake_up/idle_cpu' => 'llc', 'detach_tasks/lb_idle_util' => 'cross_node');
for my $r (sort keys %want) {
	my $h = $by_reason{$r} // {};
	note("$r: " . join(', ', map { "$_ $h->{$_}" } sort keys %$h));
	ok($h->{$want{$r}}, "$r: moves of class $want{$r}");
}
# In mt_smt's trace, the wakeups from CPU 0's LLC (its wakees sleep
# there, and are allowed nowhere else): idle_smt_sibling to an SMT
# sibling, idle_core to another core of the LLC, idle_cpu within the LLC
# (the first round may take the sibling so).  Anywhere else the target
# may be the waker's CPU, and a class says little of a wakeup's reason.
my %smt_want = (idle_smt_sibling => ['core'], idle_core => ['llc'], idle_cpu => ['core', 'llc']);
for my $r (sort keys %smt_want) {
	my $h = $smt_reason{"try_to_wake_up/$r"} // {};
	note("mt_smt, from CPU 0's LLC, $r: " . join(', ', map { "$_ $h->{$_}" } sort keys %$h));
	my %ok = map { $_ => 1 } @{$smt_want{$r}};
	ok(%$h && !grep({ !$ok{$_} } keys %$h),
	   "mt_smt's $r from CPU 0's LLC: every move of class " . join(' or ', @{$smt_want{$r}}));
}

# migrate_stats --topology: the same counts per cause and class.
my %tool;
for my $t (@traces) {
	for (`$top/scripts/migrate_stats --topology $t`) {
		last if /^\s*$/ && %tool;
		my @w = split;
		next unless @w == 6 && $w[1] =~ /^\d+$/ && $w[0] ne 'total';
		my %h;
		@h{qw(core llc cross_llc cross_node)} = @w[1 .. 4];
		$tool{$w[0]}{$_} += $h{$_} for keys %h;
	}
}
my %mine;
for my $cn (keys %by_cause) {
	$mine{$cn}{$_} = $by_cause{$cn}{$_} // 0 for qw(core llc cross_llc cross_node);
}
is_deeply(\%tool, \%mine, 'migrate_stats --topology: the same classes, cause by cause');
done_testing();
