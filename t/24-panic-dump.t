#!/usr/bin/perl
# The dump on panic: the topology guest booted with mt_dump_on_oops=40,
# logged a mark on every CPU, wrote marks 0x7001..0x7014 and panicked
# (sysrq-c).  Its console log holds the newest records of every CPU after
# the "mt_dump: " prefix: they form a trace the analysis tools read, in
# time order, that ends with those marks.
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Temp qw(tempdir);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
# t/scale/panic-dump.t checks make check-scale's guest the same way.
my $log = "$top/out/" . ($ENV{MT_PANIC_GUEST} // 'check-topo') . '/console.log';
my $dir = tempdir(CLEANUP => 1);
my (@dump, $panicked);
if (open(my $fh, '<', $log)) {
	while (<$fh>) {
		s/\r?\n$//;
		push @dump, $1 if /mt_dump: (.*)$/;
		$panicked = 1 if /Kernel panic - not syncing: sysrq triggered crash/;
	}
	close($fh);
}
ok($panicked, 'the guest panicked on purpose (sysrq-c)');
ok(@dump && $dump[-1] eq '# end of dump', 'its console log holds a whole dump (' . scalar(@dump) . ' lines)');
pop @dump if @dump && $dump[-1] eq '# end of dump';
my $trace = "$dir/dump";
open(my $out, '>', $trace) or die;
print $out "$_\n" for @dump;
close($out);

my (%loc, @ts, %per_cpu, @marks, $bad);
for (@dump) {
	if (/^# loc (\d+) (\S+)$/) { $loc{$2} = $1; next; }
	next if /^#/;
	my @f = split / /;
	$bad++ unless $f[0] =~ /^0x[0-9a-f]{16}$/ && $f[1] =~ /^\d+$/;
	push @ts, hex($f[0]);
	next if $f[5] eq 'start_sched_clock';
	if ($f[2] ne '.') { $per_cpu{$f[1]}++; next; }
	next if defined $loc{saved_comm} && $f[5] eq $loc{saved_comm};
	$per_cpu{$f[1]}++;
	push @marks, $f[6] if defined $loc{mark} && $f[5] eq $loc{mark};
}
ok(!$bad && @ts, 'every event line starts with a timestamp and a CPU');
is_deeply([grep { $ts[$_] < $ts[$_ - 1] } 1 .. $#ts], [], 'the dump is in time order');
my ($newest) = map { /^# dump_newest (\d+)/ ? $1 : () } @dump;
is($newest, 40, 'the boot parameter mt_dump_on_oops=40 armed it');
is(scalar(grep { $per_cpu{$_} > ($newest // 0) } keys %per_cpu), 0,
   'no CPU dumped more than its newest ' . ($newest // '?') . ' records');
my ($nr_cpus) = map { /^# nr_cpus (\d+)$/ ? $1 : () } @dump;
my @online = map { /^0x\S+ (\d+) \. \. \. start_sched_clock / ? $1 : () } @dump;
ok(($nr_cpus // 0) >= 2 && @online == $nr_cpus, "every CPU was online at the start (" .
   scalar(@online) . ' of ' . ($nr_cpus // '?') . ')');
is_deeply([grep { !$per_cpu{$_} } @online], [], 'every CPU has records in the dump');
is_deeply([@marks[-20 .. -1]], [map { sprintf('0x%08x', 0x7000 + $_) } 1 .. 20],
	  'the dump ends with the 20 marks written just before the panic');
my $stats = `$top/scripts/migrate_stats --stats $trace 2>&1`;
is($?, 0, 'migrate_stats reads the dump') or diag($stats);
my @listed = grep { /0x000070/ } `$top/scripts/migrate_stats --mark $trace 2>/dev/null`;
is(scalar(@listed), 20, 'and lists its 20 marks');
done_testing();
