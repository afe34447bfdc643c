# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Format - the rules of a migration_trace/trace file
#
# What every tool that reads a trace (migrate_stats, migrate_top,
# migrate_ctf, migrate_schedstat, migrate_plot, migrate_exporter,
# migrate_report) accepts, in one place: the header lines, the CPU numbers,
# the migration lines and the other events.  A reader keeps what the
# header said in a hash H (the trace object of migrate_stats), with the
# keys version, nr_cpus, cpu_limit, max_cpu (migrate_stats' option),
# cause_name and cause_num, loc_kind, reason_name and reason_num, topo,
# lost_hdr, cpu_lost, overwrite (0 or 1) and buffer_size_kb (its text),
# rec_filter (the '# filter' line, see
# parse_filter()), pid_filter and event_fork (the '# pid_filter' and
# '# event_fork' lines, see pid_filter_text()) and prev (the last
# timestamp read).  Errors go to BAD,
# the reader's sub that names the file and line and dies.

package MigrateTrace::Format;

use strict;
use warnings;
no warnings 'portable';		# 64-bit hex timestamps
use Exporter qw(import);

our @EXPORT_OK = qw(MAX_CPUS new_header header_line header_done check_cpu check_migration
		    event_of naming_kind read_file lost_counts parse_filter selected cause_recorded
		    filter_text pid_filter_text);

my $P = $0 =~ s@.*/@@gr;

# The most CPUs a trace may name.  A constant sub, not constant.pm, whose
# loading costs a run more than it saves.
sub MAX_CPUS () { 8192 }

my %naming = map { $_ => 1 } qw(copy_process set_task_comm task_list saved_comm);

# Whether the event kind NAME names a task.
sub naming_kind {
	my ($name) = @_;
	return defined $name && $naming{$name};
}

# The keys of H that the header fills, empty.
sub new_header {
	my ($h) = @_;
	$h->{$_} = {} for qw(cause_name cause_num loc_kind reason_name reason_num topo lost_hdr
			     cpu_lost hdr_seen);
	$h->{prev} = 0;
	$h->{lost_lines} = $h->{lost_gaps} = 0;
	return $h;
}

# Tags that may stand once in a header; cause, loc, reason, topology and
# cpu_lost may stand once per number (cause and loc share theirs) and per
# name.  A repeated one is refused: readers would disagree on which wins.
my %once = map { $_ => 1 } qw(version nr_cpus ts_field overwrite buffer_size_kb buffer_used
			      dropped overwritten task_list_truncated filter pid_filter event_fork);

sub once {
	my ($h, $key, $why, $bad) = @_;
	$bad->($why) if $h->{hdr_seen}{$key}++;
}

# The header line LINE (it starts with '#').  Tags the reader does not
# know are minor-version extensions: skipped.
sub header_line {
	my ($h, $line, $bad) = @_;
	# A CR within a line: the file's lines end in CR alone, or are broken.
	$bad->("a carriage return within the line (lines end in LF or CR LF)")
		if $line =~ /\r(?!\n?\z)/;
	my @w = split ' ', $line;
	my $tag = $w[1] // '';
	my $nums = sub { my ($n) = @_; @w == $n + 2 && !grep { !/^\d{1,18}$/ } @w[2 .. $n + 1] };

	once($h, $tag, "a second '# $tag' line", $bad) if $once{$tag};
	if ($tag eq 'version') {
		my ($major) = ($w[2] // '') =~ /^(\d+)\.\d+\.\d+$/ or $bad->("bad version line");
		$bad->("bad version line") unless @w == 3;
		$bad->("trace format $w[2] is not 1.x") if $major ne '1';
		$h->{version} = $w[2];
	} elsif ($tag eq 'cause' || $tag eq 'loc' || $tag eq 'reason') {
		# Names are printable ASCII: CTF's metadata quotes them.
		$bad->("bad $tag line")
			unless @w == 4 && $w[2] =~ /^\d{1,4}$/ && $w[2] > 0 && $w[3] =~ /^[\x21-\x7e]+$/;
		my ($k, $name) = ($w[2] + 0, $w[3]);
		my $space = $tag eq 'reason' ? 'reason' : 'kind';
		once($h, "$space $k", "'# $tag $k $name': number $k is named twice" .
		     ($tag eq 'reason' ? '' : ' (causes and event kinds share the numbers)'), $bad);
		once($h, "$tag $name", "'# $tag $k $name': $tag $name is named twice", $bad);
		if ($tag eq 'cause') {
			$h->{cause_name}{$k} = $name;
			$h->{cause_num}{$name} = $k;
		} elsif ($tag eq 'reason') {
			$h->{reason_name}{$k} = $name;
			$h->{reason_num}{$name} = $k;
		} else {
			$h->{loc_kind}{$k} = $name;
		}
	} elsif ($tag eq 'nr_cpus') {
		$bad->("bad nr_cpus line") unless $nums->(1) && $w[2] >= 1 && $w[2] <= MAX_CPUS;
		$h->{nr_cpus} = $w[2] + 0;
	} elsif ($tag eq 'dropped' || $tag eq 'overwritten') {
		$bad->("bad $tag line") unless $nums->(1);
		$h->{lost_hdr}{$tag} = $w[2] + 0;
	} elsif ($tag eq 'cpu_lost') {
		$bad->("bad cpu_lost line") unless $nums->(3) && $w[2] < MAX_CPUS;
		once($h, "cpu_lost " . ($w[2] + 0), "a second '# cpu_lost' line of CPU " . ($w[2] + 0), $bad);
		$h->{cpu_lost}{$w[2] + 0} = [$w[3] + 0, $w[4] + 0];
	} elsif ($tag eq 'ts_field') {
		$bad->("bad ts_field line: the timestamp is field 1") unless @w == 3 && $w[2] eq '1';
	} elsif ($tag eq 'overwrite') {
		$bad->("bad overwrite line") unless @w == 3 && $w[2] =~ /^[01]$/;
		$h->{overwrite} = $w[2] + 0;
	} elsif ($tag eq 'buffer_size_kb' || $tag eq 'buffer_used' || $tag eq 'task_list_truncated') {
		$bad->("bad $tag line") unless $nums->(1);
		# As written: a report shows the size the header gave.
		$h->{buffer_size_kb} = $w[2] if $tag eq 'buffer_size_kb';
	} elsif ($tag eq 'topology') {
		$bad->("bad topology line") unless $nums->(4) && !grep { $_ >= MAX_CPUS } @w[2 .. 4];
		once($h, "topology " . ($w[2] + 0), "a second '# topology' line of CPU " . ($w[2] + 0), $bad);
		$h->{topo}{$w[2] + 0} = [@w[3 .. 5]];
	} elsif ($tag eq 'filter') {
		# Its words name causes and reasons, which may come later in
		# the header: header_done() checks them.
		$bad->("a '# filter' line without a word (0 selects nothing)") unless @w > 2;
		$h->{filter_words} = [@w[2 .. $#w]];
		$h->{filter_line} = $.;		# for header_done()'s errors
	} elsif ($tag eq 'pid_filter') {
		# The pids set_event_pid selected (below PID_MAX_LIMIT, 2^22).
		$bad->("bad pid_filter line: pids in decimal, at least one")
			unless @w > 2 && !grep { !/^\d{1,7}$/ } @w[2 .. $#w];
		$h->{pid_filter} = [map { $_ + 0 } @w[2 .. $#w]];
	} elsif ($tag eq 'event_fork') {
		$bad->("bad event_fork line") unless @w == 3 && $w[2] =~ /^[01]$/;
		$h->{event_fork} = $w[2] + 0;
	}
}

# ---- the kernel's filter ('# filter WORD ...') ------------------------------------

# The filter of the trace's header, its WORDS checked against H's cause
# and reason names: undef without a '# filter' line, else { words, cause
# (the causes recorded whole), pair ('CAUSE/REASON' recorded, reason 0
# being none), part (the causes of such pairs) }.  The moves it does not
# select were not recorded: they are neither records nor lost, so that a
# tool must not count them as 0.  '0' alone selects nothing.  A header
# that names no cause (migrate_stats' --period_* series, read by
# migrate_extract) sets H's names_unchecked: the words must be CAUSE or
# CAUSE/REASON, their names are taken as they are.
sub parse_filter {
	my ($h, $words, $bad) = @_;
	return undef unless $words;
	my %f = (words => [@$words], cause => {}, pair => {}, part => {});
	return \%f if "@$words" eq '0';
	my $names = sub { join(' ', map { $h->{$_[0]}{$_} } sort { $a <=> $b } keys %{$h->{$_[0]}}) };
	# The names may follow the line: the error names it, not the line read.
	my $tag = "'# filter'" . ($h->{filter_line} ? " (line $h->{filter_line})" : '');
	my $free = $h->{names_unchecked};
	for my $w (@$words) {
		$bad->("$tag: 0 (nothing) stands alone") if $w eq '0';
		$bad->("$tag: '$w' is not CAUSE or CAUSE/REASON") if $free && $w !~ m@^[^/]+(?:/[^/]+)?\z@;
		my ($c, $r) = split m@/@, $w, 2;
		$bad->("$tag: unknown cause '$c' (the trace names: " . $names->('cause_name') . ')')
			unless $free || exists $h->{cause_num}{$c};
		if (!defined $r) {
			$f{cause}{$c} = 1;
			next;
		}
		$bad->("$tag: unknown reason '$r' in $w (the trace names: " .
		       join(' ', 'none', $names->('reason_name') || ()) . ')')
			unless $free || $r eq 'none' || exists $h->{reason_num}{$r};
		$f{pair}{$w} = 1;
		$f{part}{$c} = 1;
	}
	return \%f;
}

# Whether the filter F (of parse_filter(); undef: none) recorded the moves
# of cause CAUSE and reason REASON (names; none for reason 0).
sub selected {
	my ($f, $cause, $reason) = @_;
	return 1 unless $f;
	return $f->{cause}{$cause} || $f->{pair}{"$cause/$reason"} ? 1 : 0;
}

# Whether F recorded moves of CAUSE at all, of every reason or some.
sub cause_recorded {
	my ($f, $cause) = @_;
	return 1 unless $f;
	return $f->{cause}{$cause} || $f->{part}{$cause} ? 1 : 0;
}

# What F recorded, in words, so that the tools say it alike.
sub filter_text {
	my ($f) = @_;
	my @w = @{$f->{words}};
	return 'nothing was recorded (filter 0): every move is absent, not zero' if "@w" eq '0';
	return 'only ' . join(', ', @w) . (@w == 1 ? ' was' : ' were') .
		' recorded; the rest is absent, not zero';
}

# What the trace's pid filter (H's pid_filter and event_fork) recorded,
# in words; undef if it recorded every task.  The pids are numbers: a
# pid that exited and was reused selected the new task too.
sub pid_filter_text {
	my ($h) = @_;
	my $p = $h->{pid_filter} or return undef;
	return 'only the moves of pid' . (@$p == 1 ? ' ' : 's ') . join(', ', @$p) .
		($h->{event_fork} ? ' and of the tasks they forked while tracing' : '') .
		' were recorded; the other tasks\' are absent, not zero';
}

# After the header, before the first event: the CPU numbers allowed.
sub header_done {
	my ($h, $bad) = @_;
	$bad->("no '# version' line before the first event") unless $h->{version};
	$h->{rec_filter} = parse_filter($h, $h->{filter_words}, $bad);
	$h->{nr_cpus} = $h->{max_cpu} + 1 if defined $h->{max_cpu};
	$h->{cpu_limit} = $h->{nr_cpus} // MAX_CPUS;
}

sub check_cpu {
	my ($h, $cpu, $bad) = @_;
	return if $cpu < $h->{cpu_limit};
	$bad->("CPU $cpu is beyond --max_cpu $h->{max_cpu}") if defined $h->{max_cpu};
	$bad->("CPU $cpu is beyond the header's nr_cpus $h->{nr_cpus}") if defined $h->{nr_cpus};
	$bad->("CPU $cpu is beyond " . (MAX_CPUS - 1));
}

# A migration of CPU, FROM, TO, cause K and reason R (numbers), its
# fields already of the right form.
sub check_migration {
	my ($h, $cpu, $from, $to, $k, $r, $bad) = @_;
	$bad->("a migration from CPU $from to itself") if $from == $to;
	my $limit = $h->{cpu_limit};
	unless ($cpu < $limit && $from < $limit && $to < $limit) {
		check_cpu($h, $_, $bad) for $cpu, $from, $to;
	}
	$bad->("cause $k is not in the header") unless defined $h->{cause_name}{$k + 0};
	$bad->("reason $r is not in the header") if $r && !defined $h->{reason_name}{$r + 0};
	# A trace has one filter, set before it started: a move it left out
	# cannot be in it, and counting one would make a '-' a lie.
	if ($h->{rec_filter}) {
		my ($cn, $rn) = ($h->{cause_name}{$k + 0}, $r ? $h->{reason_name}{$r + 0} : 'none');
		$bad->("a move of $cn/$rn, which the trace's '# filter' left out")
			unless selected($h->{rec_filter}, $cn, $rn);
	}
}

# The event line LINE, checked whole, in time order after the one before
# (H's prev): a hash of its type and fields.  Types: migration (cpu, from,
# to, pid, cause, reason), start (sec, usec), name (pid, k, kind, name),
# mark (pid, k, mark, the value's text), lost (count), other (a kind of a
# later minor version).
sub event_of {
	my ($h, $line, $bad) = @_;
	# Single spaces between the fields; a name runs from after ': ' to the
	# end of the line; no CR but at the end.
	my $l = $line =~ s/\r?\n\z//r;
	my ($fields, $name) = $l =~ /^((?:\S+ ){6}:)(?: (.*))?\z/s ? ($1, $2 // '') : ($l);
	my @w = split / /, $fields;
	$bad->("malformed event line")
		unless $fields =~ /^\S+(?: \S+){5,}\z/ && $l !~ /\r/ && $w[0] =~ /^0x[0-9a-f]{16}$/ &&
		       $w[1] =~ /^\d{1,9}$/;
	my $ts = hex($w[0]);
	$bad->("input is not in time order; sort it first") if $ts < $h->{prev};
	$h->{prev} = $ts;
	my %e = (ts => $ts, cpu => $w[1] + 0);
	if ($w[2] ne '.') {
		my ($cpu, $from, $to, $pid, $k, $r) = $l =~
			/^0x[0-9a-f]{16} (\d{1,9}) (\d{1,9}) (\d{1,9}) (\d{1,10}) (\d{1,4})(?: (\d{1,4})(?: \S+)*)?\z/
			or $bad->("malformed event line");
		check_migration($h, $cpu, $from, $to, $k, $r // 0, $bad);
		@e{qw(type from to pid cause reason)} = ('migration', $from + 0, $to + 0, $pid + 0, $k + 0,
							($r // 0) + 0);
		return \%e;
	}
	$bad->("malformed event line") unless $w[3] eq '.';
	check_cpu($h, $e{cpu}, $bad);
	if ($w[4] eq '.') {
		# A wall clock gmtime() can take: up to the year 9999.
		$bad->("malformed start_sched_clock")
			unless @w == 8 && $w[5] eq 'start_sched_clock' &&
			       "$w[6] $w[7]" =~ /^\d{1,12} \d{1,6}$/ && $w[6] <= 253402300799;
		@e{qw(type sec usec)} = ('start', $w[6] + 0, $w[7] + 0);
		return \%e;
	}
	$bad->("malformed event line") unless $w[4] =~ /^\d{1,10}$/ && $w[5] =~ /^\d{1,4}$/;
	@e{qw(pid k)} = ($w[4] + 0, $w[5] + 0);
	my $kind = $e{kind} = $h->{loc_kind}{$e{k}};
	# Without a '# loc' line for it, an event's form tells its kind.
	if (defined $kind ? $naming{$kind} : @w >= 7 && $w[6] eq ':') {
		$bad->("malformed name event") unless defined $name;
		@e{qw(type name)} = ('name', $name);
	} elsif (defined $kind ? $kind eq 'mark' : @w == 7 && $w[6] =~ /^0x[0-9a-f]+$/) {
		$bad->("malformed mark") unless @w == 7 && $w[6] =~ /^0x[0-9a-f]{1,16}$/;
		@e{qw(type mark text)} = ('mark', hex($w[6]), $w[6]);
	} elsif (defined $kind && $kind eq 'lost') {
		$bad->("malformed lost event") unless @w == 7 && $w[6] =~ /^\d{1,18}$/;
		@e{qw(type count)} = ('lost', $w[6] + 0);
	} else {
		$e{type} = 'other';
	}
	return \%e;
}

# ---- a whole file ------------------------------------------------------------------

# FILE ('-': standard input) read by the rules above into a new header
# H, EACH called with every event of event_of(), in order; H also sums
# the body's lost lines (lost_lines, lost_gaps).  For the tools that read
# a trace event by event (migrate_ctf, migrate_schedstat, migrate_plot),
# so that they take and refuse what migrate_stats does.  Errors die
# "PROG: FILE:LINE: ...\n".
sub read_file {
	my ($h, $file, $each) = @_;
	my $fh;
	if ($file eq '-') {
		$fh = \*STDIN;
	} else {
		open($fh, '<', $file) or die "$P: $file: $!\n";
	}
	my $bad = sub { die "$P: $file:" . ($. // 0) . ": $_[0]\n" };
	my $in_header = 1;
	new_header($h);
	while (my $line = <$fh>) {
		if ($line =~ /^#/) {
			# Comments after the header are comments.
			header_line($h, $line, $bad) if $in_header;
			next;
		}
		next unless $line =~ /\S/;
		if ($in_header) {
			header_done($h, $bad);
			$in_header = 0;
		}
		my $e = event_of($h, $line, $bad);
		if ($e->{type} eq 'lost') {
			$h->{lost_lines} += $e->{count};
			$h->{lost_gaps}++;
		}
		$each->($e);
	}
	header_done($h, $bad) if $in_header;
	close($fh) if $file ne '-';
	return $h;
}

# What a trace read lost: (events, dropped, overwritten, gaps), events
# being dropped plus overwritten or the sum of the lost lines if larger,
# as migrate_stats --stats prints them.
sub lost_counts {
	my ($h) = @_;
	my ($d, $o) = ($h->{lost_hdr}{dropped} // 0, $h->{lost_hdr}{overwritten} // 0);
	return ($d + $o > $h->{lost_lines} ? $d + $o : $h->{lost_lines}, $d, $o, $h->{lost_gaps});
}

1;
