# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Stat - read a migration_stat/stat file (format 1.x)
#
# The rules of a stat, in one place for every tool that reads one: the
# header (version, period, wall clock and sched_clock of the start,
# nr_cpus, dropped, ts_field, the fields; each tag, field number and
# field name once), then rows in strictly increasing time, and no header
# line after the first row (two stats one after the other are not one).
# read_stat() reads a whole stat, whose rows are a timestamp and one
# whole count per field, and gives the totals of every field and, when
# asked, the rows: migrate_exporter and migrate_report read the kernel's
# stat with it.  migrate_extract, which also reads migrate_stats'
# --period_* output (rates with decimals, any ts_field), reads each line
# with stat_line(), header_line() and row_time().
#
# Every error is a die "PROG: FILE:LINE: ...\n", one line.

package MigrateTrace::Stat;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(read_stat stat_series new_stat stat_line header_line header_check row_time);

my $P = $0 =~ s@.*/@@gr;

# Tags that stand once in a header: readers would disagree on which wins.
my %once = map { $_ => 1 } qw(version gettimeofday period_msec nr_cpus ts_field dropped sched_clock);

# A stat to read: the keys header_line() and row_time() fill.  field
# (number => name), field_num (name => number), version, period_msec,
# wall ([sec, usec]), nr_cpus, dropped, sched_clock (text), ts_field,
# periods (the rows so far) and prev (the last row's time).
sub new_stat {
	return { field => {}, field_num => {}, seen => {}, periods => 0, dropped => 0 };
}

# The line LINE without its end (LF or CR LF); a CR elsewhere is refused:
# its file's lines end in CR alone, or it is broken.
sub stat_line {
	my ($line, $bad) = @_;
	$line =~ s/\r?\n\z//;
	$bad->('a carriage return within the line (lines end in LF or CR LF)') if $line =~ /\r/;
	return $line;
}

# The header line LINE (it starts with '#', its end removed) into ST.
# Tags the reader does not know are a later minor version's: skipped.
sub header_line {
	my ($st, $line, $bad) = @_;
	$bad->('a header line after the first period') if $st->{periods};
	my @w = split ' ', $line;
	my $tag = $w[1] // '';
	if ($tag eq 'field') {
		$bad->('bad field line') unless @w >= 4 && $w[2] =~ /^\d{1,6}$/ && $w[2] >= 2;
		my ($n, $name) = ($w[2] + 0, $line =~ s/^#\s+field\s+\d+\s+//r);
		$bad->("a second '# field $n' line") if exists $st->{field}{$n};
		$bad->("a second field named '$name'") if exists $st->{field_num}{$name};
		$st->{field}{$n} = $name;
		$st->{field_num}{$name} = $n;
		return;
	}
	$bad->("a second '# $tag' line") if $once{$tag} && $st->{seen}{$tag}++;
	if ($tag eq 'version') {
		my ($major) = ($w[2] // '') =~ /^(\d+)\.\d+\.\d+$/ or $bad->('bad version line');
		$bad->('bad version line') unless @w == 3;
		$bad->("stat format $w[2] is not 1.x") if $major ne '1';
		$st->{version} = $w[2];
	} elsif ($tag eq 'gettimeofday') {
		# A wall clock gmtime() can take: up to the year 9999.
		$bad->('bad gettimeofday line')
			unless @w == 4 && $w[2] =~ /^\d{1,12}$/ && $w[3] =~ /^\d{1,6}$/ &&
			       $w[2] <= 253402300799;
		$st->{wall} = [$w[2] + 0, $w[3] + 0];
	} elsif ($tag eq 'period_msec' || $tag eq 'nr_cpus' || $tag eq 'ts_field' || $tag eq 'dropped') {
		# A period, a field number and a CPU count start at 1; a
		# trace names 8192 CPUs at most.
		$bad->("bad $tag line") unless @w == 3 && $w[2] =~ /^\d{1,12}$/ &&
			($tag eq 'dropped' || $w[2] >= 1) && ($tag ne 'nr_cpus' || $w[2] <= 8192);
		$st->{$tag} = $w[2] + 0;
	} elsif ($tag eq 'sched_clock') {
		$bad->('bad sched_clock line') unless @w == 3 && $w[2] =~ /^0x[0-9a-f]{16}$/;
		$st->{sched_clock} = $w[2];
	}
}

# What the header of ST (read from FILE) must have said by its first row.
sub header_check {
	my ($st, $file) = @_;
	die "$P: $file: no '# version' line before the first period\n" unless $st->{version};
	die "$P: $file: no '# period_msec' line\n" unless $st->{period_msec};
}

# A row at TS (seconds, up to 12 digits and 9 decimals, as text): after
# the row before, never at the same time.  Counts the row.
sub row_time {
	my ($st, $ts, $bad) = @_;
	my ($s, $f) = $ts =~ /^(\d+)(?:\.(\d+))?$/ or $bad->("bad timestamp '$ts'");
	# Compared as text of fixed width: exact at any precision.
	my $key = sprintf('%012d', $s) . substr(($f // '') . '0' x 9, 0, 9);
	$bad->('periods out of order') if defined $st->{prev} && $key le $st->{prev};
	$st->{prev} = $key;
	$st->{periods}++;
}

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
	my $st = new_stat();
	@$st{qw(fields sums rows)} = ([], [], []);
	my $bad = sub { die "$P: $file:$.: $_[0]\n" };
	my $nf;

	while (my $line = <$fh>) {
		$line = stat_line($line, $bad);
		next unless $line =~ /\S/;
		if ($line =~ /^#/) {
			header_line($st, $line, $bad);
			next;
		}
		unless (defined $nf) {
			header_check($st, $file);
			$nf = header_fields($file, $st);
		}
		my @w = split ' ', $line;
		$bad->("bad timestamp '$w[0]'") unless $w[0] =~ /^\d{1,12}\.\d{3}$/;
		$bad->("want $nf counts after the timestamp, got " . (@w - 1)) unless @w == $nf + 1;
		for my $i (1 .. $nf) {
			$bad->("field " . ($i + 1) . " is not a count: '$w[$i]'")
				unless $w[$i] =~ /^\d{1,18}$/;
		}
		row_time($st, $w[0], $bad);
		$st->{sums}[$_ - 1] += $w[$_] for 1 .. $nf;
		push @{$st->{rows}}, [$w[0] + 0, @w[1 .. $nf]] if $keep_rows;
	}
	close($fh) if $file ne '-';
	die "$P: $file: no '# version' line\n" unless $st->{version};
	unless (defined $nf) {
		header_check($st, $file);
		header_fields($file, $st);
	}
	$st->{sums}[$_] //= 0 for 0 .. $#{$st->{fields}};
	return $st;
}

# The fields of the header, numbered 2, 3, ... without a gap, the
# timestamp being field 1 (what read_stat() reads); their count.
sub header_fields {
	my ($file, $st) = @_;
	die "$P: $file: '# ts_field $st->{ts_field}': read_stat() reads the timestamp in field 1\n"
		if ($st->{ts_field} // 1) != 1;
	my $num = $st->{field};
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
