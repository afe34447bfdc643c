# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Timestamp - how migrate_stats prints a trace timestamp
#
# Relative to the window's start, as in the trace, or as UTC or local
# wall clock to the nanosecond, from the start_sched_clock events the
# trace object (MigrateTrace::Trace) collected.

package MigrateTrace::Timestamp;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(ts_text wall_of);

my $P = $0 =~ s@.*/@@gr;

# The start clock of CPU: [timestamp, seconds, microseconds].
sub start_of {
	my ($tr, $cpu) = @_;
	my $sc = $tr->{start_clock};
	# A CPU that logged no start clock (offline then) uses the lowest CPU's.
	my $base = $sc->{$cpu // -1} // $sc->{(sort { $a <=> $b } keys %$sc)[0] // -1};
	die "$P: --ts_gmt/--ts_local need the trace's start_sched_clock events\n"
		unless $base;
	return $base;
}

# The wall clock of TS as whole seconds and nanoseconds, in integers: a
# float cannot hold nanoseconds since 1970.
sub wall_of {
	my ($tr, $ts, $cpu) = @_;
	my $b = start_of($tr, $cpu);
	my $ns = $b->[2] * 1000 + ($ts - $b->[0]);
	my $frac = $ns % 1_000_000_000;		# 0 .. 999999999, also below 0
	my $sec = $b->[1] + ($ns - $frac) / 1_000_000_000;
	die "$P: a timestamp's wall clock is outside the years 1970 to 9999\n"
		if $sec < 0 || $sec > 253402300799;
	return ($sec, $frac);
}

sub wall_text {
	my ($tr, $ts, $cpu, $utc) = @_;
	my ($sec, $frac) = wall_of($tr, $ts, $cpu);
	my @tm = $utc ? gmtime($sec) : localtime($sec);
	my $fmt = $tr->{opt}{ts_date} ? '%Y/%m/%d %H:%M:%S' : '%H:%M:%S';
	require POSIX;		# only now: it takes a while to load
	return POSIX::strftime($fmt, @tm) . sprintf('.%09d', $frac);
}

# TS (logged on CPU, or undef) in every form of the --ts_* options.
sub ts_text {
	my ($tr, $ts, $cpu) = @_;
	my @t;
	for my $f (@{$tr->{ts_forms}}) {
		if ($f eq 'rel') {
			my $d = $ts - $tr->{win_start};
			push @t, sprintf('%d.%09d', ($d - $d % 1e9) / 1e9, $d % 1e9);
		} elsif ($f eq 'abs') {
			push @t, sprintf('0x%016x', $ts);
		} else {
			push @t, wall_text($tr, $ts, $cpu, $f eq 'gmt');
		}
	}
	return join(' ', @t);
}

1;
