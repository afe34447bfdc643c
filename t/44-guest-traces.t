#!/usr/bin/perl
# Every trace the guests kept is read by the analysis tools on the host:
# the flight recorder's dump, the trace_pipe stream, the recording of
# migrate_record, the reasons and topology workloads, the stat window.
# For each, migrate_stats --stats exits 0, and its migration and lost
# counts equal an independent count of the file's lines (a migration is
# a 7-field line with a number in its third field; a lost line is the
# "lost" kind, its count in the 7th field).
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my @traces = map { "$top/out/$_" } qw(check/trace check/flight check/pipe_stream
	check/reasons check/record check/stat_window_trace check-kcsan/flight
	check-kcsan/pipe_stream check-topo/topology);

# Migrations and lost records of a trace, counted from its lines.
sub count_lines {
	my ($file) = @_;
	my ($migrations, $lost, $lost_kind) = (0, 0, -1);
	open(my $fh, '<', $file) or return;
	while (<$fh>) {
		if (/^# loc (\d+) lost$/) {
			$lost_kind = $1;
			next;
		}
		next if /^#/;
		my @f = split;
		if (@f == 7 && $f[2] =~ /^\d+$/) {
			$migrations++;
		} elsif (@f == 7 && $f[2] eq '.' && $f[5] == $lost_kind) {
			$lost += $f[6];
		}
	}
	close($fh);
	return ($migrations, $lost);
}

for my $t (@traces) {
	my $name = $t =~ s@^\Q$top\E/out/@@r;
	unless (-s $t) {
		fail("$name: the guest kept it");
		next;
	}
	my $out = `$top/scripts/migrate_stats --stats $t 2>/dev/null`;
	is($?, 0, "$name: migrate_stats --stats reads it");
	my ($migrations) = $out =~ /^migrations (\d+) /m;
	my ($lost) = $out =~ /^lost (\d+) /m;
	my ($want_migrations, $want_lost) = count_lines($t);
	ok($want_migrations > 0, "$name: it holds migrations ($want_migrations)");
	is($migrations, $want_migrations, "$name: migrate_stats counts every migration line");
	is($lost, $want_lost, "$name: and every lost record ($want_lost)");
}
done_testing();
