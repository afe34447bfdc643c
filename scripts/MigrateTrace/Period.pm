# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Period - migrate_stats' per-period series (--period_*)
#
# Rates per second of the migrations of each period, written in the layout
# of migration_stat/stat so that migrate_extract reads them: the field
# groups, the header, one line per complete period.  The reading loop
# (MigrateTrace::Trace) counts each migration in pc, per set of fields it
# counts in, and calls periods_until() when a period ends.

package MigrateTrace::Period;

use strict;
use warnings;
use Exporter qw(import);
use MigrateTrace::Timestamp qw(ts_text wall_of);

our @EXPORT_OK = qw(setup_periods field_set periods_until periods_done);

my $P = $0 =~ s@.*/@@gr;

# The most fields a series may have: --period_cpu_pair's NR_CPUS squared
# for 256 CPUs, --period_cpu's twice NR_CPUS for every CPU a trace names.
my $MAX_FIELDS = 65536;

# The fields of the options given: their names in fields, and per field
# group [kind, name -> field index] in groups.
sub setup_periods {
	my ($tr) = @_;
	my ($opt, $nr_cpus) = @$tr{qw(opt nr_cpus)};

	die "$P: --period_cpu and --period_cpu_pair need '# nr_cpus' in the trace or --max_cpu\n"
		if ($opt->{period_cpu} || $opt->{period_cpu_pair}) && !defined $nr_cpus;
	my @cpus = 0 .. ($nr_cpus // 1) - 1;
	my $n = ($opt->{period_cpu} ? 2 * @cpus : 0) + ($opt->{period_cpu_pair} ? @cpus * @cpus : 0);
	die "$P: --period_cpu" . ($opt->{period_cpu_pair} ? '_pair' : '') . ": " . scalar(@cpus) .
		" CPUs make $n fields, more than $MAX_FIELDS; --max_cpu N takes CPUs 0 to N only\n"
		if $n > $MAX_FIELDS;
	my @causes = $tr->cause_order();
	my @g;
	push @g, ['cause', [map { [$_, $_] } @causes]] if $opt->{period_cause};
	push @g, ['all', [['migrate', 'migrate']]] if $opt->{period_all};
	if ($opt->{period_cpu}) {
		push @g, ['from', [map { ["from cpu: $_", $_] } @cpus]];
		push @g, ['to', [map { ["to cpu: $_", $_] } @cpus]];
	}
	if ($opt->{period_cpu_pair}) {
		push @g, ['pair', [map { my $f = $_; map { ["from cpu: $f to cpu: $_", "$f $_"] } @cpus }
				   @cpus]];
	}
	if ($opt->{period_reason}) {
		my $rn = $tr->{reason_name};
		my @r = ('none', map { $rn->{$_} } sort { $a <=> $b } keys %$rn);
		push @g, ['reason', [map { my $c = $_; map { ["$c/$_", "$c/$_"] } @r } @causes]];
	}
	my $fields = $tr->{fields};
	for my $g (@g) {
		my %ix;
		for (@{$g->[1]}) {
			$ix{$_->[1]} = scalar(@$fields);
			push @$fields, $_->[0];
		}
		push @{$tr->{groups}}, [$g->[0], \%ix];
	}
	push @$fields, 'pingpong' if defined $tr->{pp_ns};
	# With no field groups but --period_all every migration counts in the
	# same set of fields, the first: the loop counts them in migs alone.
	$tr->{period_all_only} = !grep { $_->[0] ne 'all' } @{$tr->{groups}};
}

# The set of fields a migration from FROM to TO of cause name CN and
# reason name RN counts in, as an index of fs_fields (its field indexes).
# Migrations that count in the same fields share it, so that a period's
# line adds up no more counts than the options' fields need: one for
# --period_all, one per cause for --period_cause.
sub field_set {
	my ($tr, $from, $to, $cn, $rn) = @_;
	my @f = grep { defined } map { $_->[1]{$_->[0] eq 'pair' ? "$from $to" :
		$_->[0] eq 'from' ? $from : $_->[0] eq 'to' ? $to : $_->[0] eq 'all' ? 'migrate' :
		$_->[0] eq 'cause' ? $cn : "$cn/$rn"} } @{$tr->{groups}};
	my $fs = $tr->{fs_ix}{"@f"};
	return $fs if defined $fs;
	push @{$tr->{fs_fields}}, \@f;
	return $tr->{fs_ix}{"@f"} = $#{$tr->{fs_fields}};
}

sub period_header {
	my ($tr) = @_;
	my $fields = $tr->{fields};

	print "# version 1.2.0\n# period_msec 1000\n# nr_cpus " . ($tr->{nr_cpus} // 1) .
		"\n# ts_field 1\n";
	# The trace's filter, as it wrote it: its fields of moves not
	# recorded read 0.00, which a reader of the series can tell from it
	# (MigrateTrace::Format's parse_filter()); stat readers skip the tag.
	print "# filter @{$tr->{rec_filter}{words}}\n" if $tr->{rec_filter};
	print "# pid_filter @{$tr->{pid_filter}}\n" if $tr->{pid_filter};
	print "# event_fork 1\n" if $tr->{pid_filter} && $tr->{event_fork};
	printf("# field %d %s\n", $_ + 2, $fields->[$_]) for 0 .. $#$fields;
	if (%{$tr->{start_clock}} && defined $tr->{win_start}) {
		my ($sec, $ns) = wall_of($tr, $tr->{win_start}, undef);	# when period 0 began
		printf("# gettimeofday %d %06d\n", $sec, int($ns / 1000));
	}
	$tr->{period_hdr_done} = 1;
}

# The line of the period that began at START, unless --min_rate drops it.
sub period_line {
	my ($tr, $start) = @_;
	my ($opt, $fields, $pc, $fs_fields) = @$tr{qw(opt fields pc fs_fields)};
	my $scale = 1e9 / $tr->{period_ns};
	my @v = (0) x @$fields;
	my $n = 0;

	if ($tr->{period_all_only}) {
		@$pc = ($tr->{migs} - $tr->{migs_seen});
		$tr->{migs_seen} = $tr->{migs};
	}
	for my $s (0 .. $#$pc) {
		my $k = $pc->[$s] or next;
		$n += $k;
		$v[$_] += $k for @{$fs_fields->[$s]};
	}
	if (defined $tr->{pp_ns}) {
		$v[-1] = $tr->{pp_total} - $tr->{pp_seen};
		$tr->{pp_seen} = $tr->{pp_total};
	}
	@$pc = ();
	return if defined $tr->{min_rate} && $n * $scale < $tr->{min_rate};
	my $w = $opt->{period_human} ? 10 : 0;
	my $ts;
	my $forms = $tr->{ts_forms};
	if (@$forms == 1 && $forms->[0] eq 'rel') {
		my $ms = int(($start - $tr->{win_start}) / 1e6 + 0.5);
		$ts = sprintf('%d.%03d', int($ms / 1000), $ms % 1000);
	} else {
		$ts = ts_text($tr, $start, undef);
	}
	print $opt->{period_human} ? sprintf('%-12s', $ts) : $ts;
	print join('', map { sprintf(' %*.2f', $w, $_ * $scale) } @v), "\n";
}

# Writes every period that ended before TS: the one that was counting,
# then those without a migration up to TS.  A gap of more than --max_gap
# such periods is an error, unless --min_rate drops them all: a trace whose
# last timestamp is far ahead would make the series endless.
sub periods_until {
	my ($tr, $ts) = @_;
	return if $tr->{pass_no};
	period_header($tr) unless $tr->{period_hdr_done};
	my $p = $tr->{period_ns};
	return if $ts < $tr->{period_end};
	period_line($tr, $tr->{period_end} - $p);
	$tr->{period_end} += $p;
	my $empty = $ts < $tr->{period_end} ? 0 : int(($ts - $tr->{period_end}) / $p) + 1;
	return unless $empty;
	if ($tr->{min_rate}) {
		$tr->{period_end} += $empty * $p;
		return;
	}
	$tr->{bad}->(sprintf("%.0f periods of %d ms without a migration, from 0x%016x to 0x%016x: " .
			     "more than --max_gap %d", $empty, $p / 1e6, $tr->{period_end} - $p,
			     $ts, $tr->{max_gap})) if $empty > $tr->{max_gap};
	while ($ts >= $tr->{period_end}) {
		period_line($tr, $tr->{period_end} - $p);
		$tr->{period_end} += $p;
	}
}

# After the events: the series' header even when no period was written
# (a trace of a header alone, a window that never began), so that the
# output is a stat of no period, which migrate_extract reads, and not
# nothing.
sub periods_done {
	my ($tr) = @_;
	period_header($tr) unless $tr->{period_hdr_done};
}

1;
