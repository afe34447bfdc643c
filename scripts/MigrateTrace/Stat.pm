# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Stat - read a migration_stat/stat file (format 1.x)
#
# The whole file at once, checked: the header (version, period, wall
# clock and sched_clock of the start, nr_cpus, dropped, the fields), then
# one row per complete period, each a timestamp and one whole count per
# field.  It gives the totals of every field and, when asked, the rows.
# migrate_exporter and migrate_report read the kernel's stat with it;
# migrate_extract, which also reads migrate_stats' --period_* output (rates
# with decimals), keeps a reader of its own.
#
# Every error is a die "PROG: FILE:LINE: ...\n", one line.

package MigrateTrace::Stat;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(read_stat stat_series);

my $P = $0 =~ s@.*/@@gr;

# Reads FILE ('-' for standard input); with KEEP_ROWS, also its rows.
# Returns { version, period_msec, wall => [sec, usec] (or undef),
# sched_clock (text or undef), nr_cpus, dropped, fields => [names of
# fields 2, 3, ...], sums => [one total per field], periods, rows =>
# [[ts, counts...], ...] }.
sub read_stat {
	my ($file, $keep_rows) = @_;
	my $fh;
	if ($file eq '-') {
		$fh = \*STDIN;
	} else {
		open($fh, '<', $file) or die "$P: $file: $!\n";
	}
	my %st = (fields => [], sums => [], rows => [], periods => 0, dropped => 0);
	my %num;	# field number => name
	my $bad = sub { die "$P: $file:$.: $_[0]\n" };
	my ($nf, $prev_ms);

	while (my $line = <$fh>) {
		$line =~ s/\r?\n\z//;
		next unless $line =~ /\S/;
		if ($line =~ /^#/) {
			$bad->('a header line after the first period') if $st{periods};
			my @w = split ' ', $line;
			my $tag = $w[1] // '';
			if ($tag eq 'version') {
				my ($major) = ($w[2] // '') =~ /^(\d+)\.\d+\.\d+$/
					or $bad->('bad version line');
				die "$P: $file: stat format $w[2] is not 1.x\n" if $major != 1;
				$st{version} = $w[2];
			} elsif ($tag eq 'field') {
				$bad->('bad field line') unless @w >= 4 && $w[2] =~ /^\d{1,5}$/ && $w[2] >= 2;
				$bad->("field $w[2] named twice") if exists $num{$w[2] + 0};
				$num{$w[2] + 0} = $line =~ s/^#\s+field\s+\d+\s+//r;
			} elsif ($tag eq 'period_msec') {
				$bad->('bad period_msec line')
					unless @w == 3 && $w[2] =~ /^\d{1,7}$/ && $w[2] > 0;
				$st{period_msec} = $w[2] + 0;
			} elsif ($tag eq 'gettimeofday') {
				$bad->('bad gettimeofday line')
					unless @w == 4 && $w[2] =~ /^\d{1,12}$/ && $w[3] =~ /^\d{1,6}$/;
				$st{wall} = [$w[2] + 0, $w[3] + 0];
			} elsif ($tag eq 'nr_cpus' || $tag eq 'dropped') {
				$bad->("bad $tag line") unless @w == 3 && $w[2] =~ /^\d{1,18}$/;
				$st{$tag} = $w[2] + 0;
			} elsif ($tag eq 'sched_clock') {
				$bad->('bad sched_clock line') unless @w == 3 && $w[2] =~ /^0x[0-9a-f]{16}$/;
				$st{sched_clock} = $w[2];
			} elsif ($tag eq 'ts_field') {
				$bad->('bad ts_field line: the timestamp is field 1')
					unless @w == 3 && $w[2] eq '1';
			}
			# Other tags: a later minor version's, ignored.
			next;
		}
		unless (defined $nf) {
			die "$P: $file: no '# version' line before the first period\n"
				unless $st{version};
			$nf = header_fields($file, \%st, \%num);
		}
		my @w = split ' ', $line;
		my ($s, $ms) = $w[0] =~ /^(\d{1,12})\.(\d{3})$/
			or $bad->("bad timestamp '$w[0]'");
		$bad->("want $nf counts after the timestamp, got " . (@w - 1)) unless @w == $nf + 1;
		my $t = $s * 1000 + $ms;
		$bad->('periods out of order') if defined $prev_ms && $t <= $prev_ms;
		$prev_ms = $t;
		for my $i (1 .. $nf) {
			$bad->("field " . ($i + 1) . " is not a count: '$w[$i]'")
				unless $w[$i] =~ /^\d{1,18}$/;
			$st{sums}[$i - 1] += $w[$i];
		}
		push @{$st{rows}}, [$t / 1000, @w[1 .. $nf]] if $keep_rows;
		$st{periods}++;
	}
	close($fh) if $file ne '-';
	die "$P: $file: no '# version' line\n" unless $st{version};
	header_fields($file, \%st, \%num) unless defined $nf;
	$st{sums}[$_] //= 0 for 0 .. $#{$st{fields}};
	return \%st;
}

# The fields of the header, numbered 2, 3, ... without a gap; their count.
sub header_fields {
	my ($file, $st, $num) = @_;
	die "$P: $file: no '# period_msec' line\n" unless $st->{period_msec};
	my @n = sort { $a <=> $b } keys %$num;
	die "$P: $file: no '# field' lines\n" unless @n;
	die "$P: $file: the fields are not numbered 2 to " . (@n + 1) . "\n"
		unless $n[0] == 2 && $n[-1] == @n + 1;
	$st->{fields} = [map { $num->{$_} } @n];
	return scalar(@n);
}

# The stat's migrations as series of cause and reason: a cause with
# CAUSE/REASON fields has one per reason (its moves without a reason are
# CAUSE/none), a cause without has one, reason 'none'.  Returns a list of
# [cause, reason, field index]: together they count every migration
# once, as 'migrate' does.  Dies unless the stat adds up: each cause the
# sum of its reasons, migrate the sum of the causes.
sub stat_series {
	my ($st, $file) = @_;
	my ($fields, $sums) = @$st{qw(fields sums)};
	my ($mig) = grep { $fields->[$_] eq 'migrate' } 0 .. $#$fields;
	die "$P: $file: no 'migrate' field\n" unless defined $mig;
	my %reasons;
	for my $i ($mig + 1 .. $#$fields) {
		my ($c, $r) = $fields->[$i] =~ m@^([^/\s]+)/([^/\s]+)$@ or next;
		push @{$reasons{$c}}, [$r, $i];
	}
	my (@series, $all);
	for my $i (0 .. $mig - 1) {
		my $c = $fields->[$i];
		die "$P: $file: field '$c' is not a cause name\n" unless $c =~ /^\w+$/;
		$all += $sums->[$i];
		unless ($reasons{$c}) {
			push @series, [$c, 'none', $i];
			next;
		}
		my $n = 0;
		for (@{$reasons{$c}}) {
			$n += $sums->[$_->[1]];
			push @series, [$c, $_->[0], $_->[1]];
		}
		die "$P: $file: the reasons of $c add up to $n, not to its $sums->[$i]\n"
			if $n != $sums->[$i];
	}
	die "$P: $file: the causes add up to " . ($all // 0) . ", not to migrate's $sums->[$mig]\n"
		if ($all // 0) != $sums->[$mig];
	return @series;
}

1;
