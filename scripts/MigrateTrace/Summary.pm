# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Summary - migrate_stats' summaries of a trace read
#
# --stats (duration; count and rate per cause and per cause and reason;
# losses; from/to CPU matrices), --summary_pid and --consistency, from the
# counts the reading loop (MigrateTrace::Trace) left in the trace object.

package MigrateTrace::Summary;

use strict;
use warnings;
use Exporter qw(import);
use MigrateTrace::Format qw(lost_counts cause_recorded filter_text pid_filter_text);

our @EXPORT_OK = qw(duration rate sum_by print_stats print_summary_pid print_consistency);

my $P = $0 =~ s@.*/@@gr;

# The window's length in seconds: from its begin point to its end point,
# or to the last event when no end option closed it.
sub duration {
	my ($tr) = @_;
	return 0 unless $tr->{begun};
	my $d = ((defined $tr->{win_end} ? $tr->{win_end} : $tr->{prev}) - $tr->{win_start}) / 1e9;
	return $d < 0 ? 0 : $d;
}

sub rate {
	my ($tr, $n) = @_;
	my $d = duration($tr);
	return $d > 0 ? sprintf('%.2f', $n / $d) : '-';
}

# Counts of the migration keys summed by FN(key index) (a name or a list
# of them).
sub sum_by {
	my ($tr, $fn) = @_;
	my $kn = $tr->{kn};
	my %n;
	for my $i (0 .. $#$kn) {
		next unless $kn->[$i];
		$n{$_} += $kn->[$i] for $fn->($i);
	}
	return \%n;
}

sub total {
	my ($tr) = @_;
	my $n = 0;
	$n += $_ for @{$tr->{kn}};
	return $n;
}

sub print_stats {
	my ($tr) = @_;
	my ($k_combo, $c_from, $c_to, $c_cause, $c_reason, $cause_name) =
		@$tr{qw(k_combo c_from c_to c_cause c_reason cause_name)};
	my $n_total = total($tr);
	my $pairs = sum_by($tr, sub { my $c = $k_combo->[$_[0]]; "$c_from->[$c] $c_to->[$c]" });
	# The CPUs that a migration counted left or reached: the matrices
	# grow with them, not with the header's nr_cpus.
	my %active = map { $_ => 1 } map { split ' ' } keys %$pairs;
	my @cpus = sort { $a <=> $b } keys %active;

	printf("duration_sec %.6f\n", duration($tr));
	printf("migrations %d rate %s\n", $n_total, rate($tr, $n_total));
	if (%{$tr->{lost_hdr}} || $tr->{lost_gaps}) {
		printf("lost %d dropped %d overwritten %d gaps %d\n", lost_counts($tr));
	}
	# The kernel's filter: the moves it left out are not in the counts.
	my $rf = $tr->{rec_filter};
	print 'filter: ', filter_text($rf), "\n" if $rf;
	print 'pid_filter: ', pid_filter_text($tr), "\n" if $tr->{pid_filter};
	printf("\n%-32s %10s %12s\n", 'cause', 'count', 'rate/sec');
	my $by_cause = sum_by($tr, sub { $cause_name->{$c_cause->[$k_combo->[$_[0]]]} });
	for my $c ($tr->cause_order()) {
		next unless $tr->filter_passes('cause', $c);
		my $n = $by_cause->{$c} // 0;
		# A cause the filter left out was not measured: '-', as a rate
		# without a duration, keeps the row's three fields.
		if (!$n && !cause_recorded($rf, $c)) {
			printf("%-32s %10s %12s\n", $c, '-', '-');
			next;
		}
		printf("%-32s %10d %12s\n", $c, $n, rate($tr, $n));
	}
	printf("%-32s %10d %12s\n", 'total', $n_total, rate($tr, $n_total));
	if (%{$tr->{reason_name}}) {
		my %ord;
		my $by = sum_by($tr, sub { my $c = $k_combo->[$_[0]];
			my $n = $cause_name->{$c_cause->[$c]} . '/' . $tr->reason_text($c_reason->[$c]);
			$ord{$n} = $c_cause->[$c] * 100000 + $c_reason->[$c];
			$n });
		printf("\n%-40s %10s %12s\n", 'cause/reason', 'count', 'rate/sec');
		printf("%-40s %10d %12s\n", $_, $by->{$_}, rate($tr, $by->{$_}))
			for sort { $ord{$a} <=> $ord{$b} } keys %$by;
		printf("%-40s %10d %12s\n", 'total', $n_total, rate($tr, $n_total));
	}
	for my $kind ('count', 'rate/sec') {
		my $fmt = sub { $kind eq 'count' ? $_[0] : rate($tr, $_[0]) };
		my %col;
		print "\nfrom\\to ($kind)";
		printf(" %9s", "cpu$_") for @cpus;
		printf(" %9s\n", 'total');
		for my $fr (@cpus) {
			my $row = 0;
			printf('%-15s', "cpu$fr");
			for my $t (@cpus) {
				my $n = $pairs->{"$fr $t"} // 0;
				$row += $n;
				$col{$t} += $n;
				printf(' %9s', $fmt->($n));
			}
			printf(" %9s\n", $fmt->($row));
		}
		printf('%-15s', 'total');
		printf(' %9s', $fmt->($col{$_} // 0)) for @cpus;
		printf(" %9s\n", $fmt->($n_total));
	}
}

# Per task: count, rate and names, most migrations first; --min_count
# applies here when it is the only output.
sub print_summary_pid {
	my ($tr) = @_;
	my ($tn, $t_pid, $min_count) = @$tr{qw(tn t_pid min_count)};
	my %per_pid = map { $tn->[$_] && (!defined $min_count || $tn->[$_] >= $min_count) ?
		($t_pid->[$_] => $tn->[$_]) : () } 0 .. $#$tn;

	printf("%8s %10s %12s  %s\n", 'pid', 'count', 'rate/sec', 'names');
	for my $pid (sort { $per_pid{$b} <=> $per_pid{$a} || $a <=> $b } keys %per_pid) {
		printf("%8d %10d %12s  %s\n", $pid, $per_pid{$pid}, rate($tr, $per_pid{$pid}),
		       $tr->names_of($pid));
	}
}

sub print_consistency {
	my ($tr) = @_;
	my $sc = $tr->{start_clock};
	die "$P: --consistency: the trace has no start_sched_clock events\n" unless %$sc;
	my @cpus = sort { $a <=> $b } keys %$sc;
	my ($ts0) = sort { $a <=> $b } map { $sc->{$_}[0] } @cpus;
	my ($w0) = sort { $a <=> $b } map { $sc->{$_}[1] * 1e6 + $sc->{$_}[2] } @cpus;
	my ($tsmax, $wmax) = (0, 0);

	printf("%5s %15s %15s\n", 'cpu', 'ts_offset_ns', 'wall_offset_us');
	for my $c (@cpus) {
		my ($ts, $s, $us) = @{$sc->{$c}};
		my ($dt, $dw) = ($ts - $ts0, $s * 1e6 + $us - $w0);
		$tsmax = $dt if $dt > $tsmax;
		$wmax = $dw if $dw > $wmax;
		printf("%5d %15d %15d\n", $c, $dt, $dw);
	}
	printf("ts_spread_ns %d\nwall_spread_us %d\n", $tsmax, $wmax);
}

1;
