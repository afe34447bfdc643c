# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Trace - read a migration_trace/trace file (format 1.x)
#
# The reader of scripts/migrate_stats: the input files and their errors,
# the header and the events other than migrations (by the rules of
# MigrateTrace::Format), the filters, the window, and the loop over the
# events, put together as perl code for the options given.  Everything one read learns is in the trace object; the
# summaries, the period series and the topology and ping-pong analyses
# (MigrateTrace::Summary, ::Period, ::Topology) read it from there.
#
# Every error is a die "PROG: ...\n"; the command makes it one line on
# stderr and exit status 2.

package MigrateTrace::Trace;

use strict;
use warnings;
no warnings 'portable';		# 64-bit hex timestamps
use Exporter qw(import);
use MigrateTrace::Timestamp qw(ts_text);
use MigrateTrace::Period qw(field_set periods_until);
use MigrateTrace::Topology qw(topo_class topo_classes);
use MigrateTrace::Format qw(new_header header_line header_done check_migration event_of
			    lost_counts);

our @EXPORT_OK = qw(make_filters new_trace open_trace read_events read_trace lost_counts);

my $P = $0 =~ s@.*/@@gr;

# ---- filters -----------------------------------------------------------------

# Include and exclude sets of the filters, from the option lists (cause,
# cause_exclude, ...); the two of one kind must not meet.
sub make_filters {
	my ($lists) = @_;
	my %filter;

	for my $k (qw(cause comm cpu_event cpu_from cpu_to pid reason)) {
		my %in = map { $_ => 1 } @{$lists->{$k}};
		my %out = map { $_ => 1 } @{$lists->{"${k}_exclude"}};
		for (keys %in) {
			die "$P: --$k $_ and --${k}_exclude $_ contradict\n" if $out{$_};
		}
		$filter{$k} = { in => \%in, out => \%out, any => scalar(keys %in),
				none => !%in && !%out };
	}
	return \%filter;
}

# Whether one of the values V passes filter F.
sub passes {
	my ($f, @v) = @_;
	return 1 if $f->{none};
	return 0 if grep { $f->{out}{$_} } @v;
	return !$f->{any} || scalar(grep { $f->{in}{$_} } @v);
}

# The same for the trace's filter of KIND (cause, comm, ...).
sub filter_passes {
	my ($tr, $kind, @v) = @_;
	return passes($tr->{filter}{$kind}, @v);
}

# ---- the trace object --------------------------------------------------------

# A trace to read with the options ARGS: opt (the flags and values of the
# command line), lists (the repeatable options, checked), filter (of
# make_filters()), begin_mark (a list), end_mark (a set), max_cpu, pp_ns
# (--pingpong in ns), min_count, min_rate, period_ns, ts_forms and files.
sub new_trace {
	my (%args) = @_;
	my $tr = bless { %args }, __PACKAGE__;

	# The header (MigrateTrace::Format), and the errors of the input.
	new_header($tr);
	$tr->{bad} = sub { bad($tr, @_) };
	# Names and clocks, kept over both passes of --min_count.
	$tr->{$_} = {} for qw(names start_clock keep_pid begin_need);
	# The period series' fields (MigrateTrace::Period).
	$tr->{fields} = [];
	$tr->{groups} = [];
	$tr->{pass_no} = 0;
	return $tr;
}

# The state of one pass over the events: per migration key (k_*), per
# combination of from, to, cause and reason (c_*), per task (t_*), the
# window, periods (pc counts per set of fields, fs_*) and ping-pongs
# (pp_total, pp_causes per pair of cause numbers out and back, pp_hist per
# microsecond of return time, t_pp per task; pp_seen is pp_total when the
# last period was written; migs counts the migrations when kn does not,
# or when the period series count all of them in one set of fields, and
# migs_seen is migs when the last period was written).  --topology counts
# per class, per task (cls_tn), each key pointing to the array of its class
# (k_cls_tn).
sub reset_pass {
	my ($tr) = @_;
	my $filter = $tr->{filter};

	$tr->{$_} = {} for qw(kidx combo_ix task_ix task_tx comm begin_at pp_causes pp_hist fs_ix);
	$tr->{$_} = [] for qw(k_combo k_cpu k_pass k_cls k_cls_tn k_pair k_rev k_cause k_fs kn
			     c_from c_to c_cause c_reason c_fs c_pass c_pair c_rev c_cls
			     t_pid t_pass tn t_lastts t_lastkey t_pp fs_fields pc);
	$tr->{cls_tn} = [map { [] } topo_classes()];
	# k_pair ends with -1, the pair of no move (key -1, the last move of a
	# task that has not moved yet).
	$tr->{k_pair} = [-1];
	$tr->{task_filters} = !$filter->{pid}{none} || !$filter->{comm}{none} || $tr->{two_pass};
	$tr->{static_filters} = grep { !$filter->{$_}{none} } qw(cause cpu_from cpu_to reason cpu_event);
	$tr->{$_} = 0 for qw(pp_total pp_seen migs migs_seen lost_lines lost_gaps prev begun
			    ended);
	$tr->{win_start} = $tr->{win_end} = undef;
	$tr->{period_end} = 9**9**9;
	$tr->{begin_need}{$_} = 1 for @{$tr->{begin_mark}};
	# Without a begin option the window starts at the first event.
	if (defined $tr->{first_ts} && !$tr->{has_begin}) {
		$tr->{begun} = 1;
		$tr->{win_start} = $tr->{first_ts};
		$tr->{period_end} = $tr->{first_ts} + $tr->{period_ns} if $tr->{period_ns};
	}
}

sub reason_text {
	my ($tr, $r) = @_;
	return $r ? $tr->{reason_name}{$r} : 'none';
}

# The cause names in number order.
sub cause_order {
	my ($tr) = @_;
	my $cn = $tr->{cause_name};
	return map { $cn->{$_} } sort { $a <=> $b } keys %$cn;
}

# Every name PID had, comma separated.
sub names_of {
	my ($tr, $pid) = @_;
	return join(',', sort keys %{$tr->{names}{$pid} // {}}) || '?';
}

# ---- input -------------------------------------------------------------------

sub bad {
	my ($tr, $why) = @_;
	die "$P: $tr->{file}:$.: $why\n";
}

# The timestamp of the line in $_ is not '0x' and 16 lowercase hex digits,
# or it is earlier than the one before.
sub bad_ts {
	my ($tr) = @_;
	bad($tr, "malformed event line") unless /^0x[0-9a-f]{16} /;
	bad($tr, "input is not in time order; sort it first");
}

# A perl warning while reading means a field that is not what it should
# be: one line and exit 2, as for any other malformed line.  A line that
# begins with 0x but is too short for the compiled loop's key is a
# malformed event line.
sub on_warn {
	my ($tr, $w) = @_;
	bad($tr, "malformed event line") if $w =~ /^substr outside of string/;
	$w =~ s/ at (?:\(eval \d+\)|\S+) line \d+.*//s;
	$w =~ s/[^\x20-\x7e]+/?/g;
	$w =~ s/\n.*//s;
	die "$P: $tr->{file}:" . ($. // 0) . ": malformed line ($w)\n";
}

sub open_input {
	my ($tr, $f) = @_;
	$tr->{file} = $f;
	if ($f eq '-') {
		$tr->{fh} = \*STDIN;
	} else {
		# A handle of its own: $. counts this file's lines from 1.
		open(my $fh, '<', $f) or die "$P: $f: $!\n";
		$tr->{fh} = $fh;
	}
}

# ---- the header ----------------------------------------------------------------

# Reads the header of the file open (again, for a second pass: then
# only skips it); returns the first event line.
sub read_header {
	my ($tr, $again) = @_;
	my $fh = $tr->{fh};

	while (<$fh>) {
		return $_ unless /^#/ || !/\S/;
		header_line($tr, $_, $tr->{bad}) unless $again;
	}
	return undef;
}

# The header of a later file (the one open), if it has one, read by the
# same rules: its events are counted under the first file's names, so it
# must not name a cause, reason or event kind otherwise, nor another
# nr_cpus.  Returns its first event line.
sub later_header {
	my ($tr) = @_;
	my $h = new_header({});
	my $fh = $tr->{fh};
	my $line;
	while (defined($line = <$fh>)) {
		last unless $line =~ /^#/ || $line !~ /\S/;
		header_line($h, $line, $tr->{bad});
	}
	my $first = $tr->{files}[0];
	my $differ = sub {
		my ($what, $a, $b) = @_;
		die "$P: $tr->{file}: its header contradicts that of $first: $what is " .
		    (defined $b ? "'$b'" : 'not named') . " here, " . (defined $a ? "'$a'" : 'not named') .
		    " there\n";
	};
	for my $t (['cause', 'cause_name'], ['reason', 'reason_name'], ['event kind', 'loc_kind']) {
		my ($word, $key) = @$t;
		next unless %{$h->{$key}};
		for my $k (sort { $a <=> $b } keys %{{ %{$tr->{$key}}, %{$h->{$key}} }}) {
			my ($a, $b) = ($tr->{$key}{$k}, $h->{$key}{$k});
			$differ->("$word $k", $a, $b) unless defined $a && defined $b && $a eq $b;
		}
	}
	$differ->('nr_cpus', $tr->{hdr_nr_cpus}, $h->{nr_cpus})
		if defined $h->{nr_cpus} && ($tr->{hdr_nr_cpus} // -1) != $h->{nr_cpus};
	# A header of its own with another filter (or none) recorded other
	# moves: its counts would not add up with the first file's.
	if (defined $h->{version}) {
		my ($first_f, $this_f) = map { $_->{filter_words} ? "@{$_->{filter_words}}" : undef } $tr, $h;
		$differ->('the filter', $first_f, $this_f) if ($first_f // '') ne ($this_f // '');
	}
	return $line;
}

# Opens the first file and reads its header; checks the cause and reason
# names of the filters against it.  --min_count reads the input twice:
# standard input goes to a file first.
sub open_trace {
	my ($tr) = @_;
	my ($cause_num, $reason_num) = @$tr{qw(cause_num reason_num)};

	if ($tr->{two_pass}) {
		for (@{$tr->{files}}) {
			next unless $_ eq '-';
			require File::Temp;	# only now: it takes a while to load
			my ($tfh, $tname) = File::Temp::tempfile(UNLINK => 1);
			print $tfh $_ while <STDIN>;
			close($tfh) or die "$P: $tname: $!\n";
			$_ = $tname;
		}
	}
	open_input($tr, $tr->{files}[0]);
	$tr->{first} = read_header($tr);
	# The header's own nr_cpus: header_done() puts --max_cpu's in its place.
	$tr->{hdr_nr_cpus} = $tr->{nr_cpus};
	header_done($tr, $tr->{bad});
	for my $f (qw(cause cause_exclude)) {
		for my $name (@{$tr->{lists}{$f}}) {
			die "$P: unknown cause '$name' (the trace names: " .
				join(' ', cause_order($tr)) . ")\n" unless exists $cause_num->{$name};
		}
	}
	for my $f (qw(reason reason_exclude)) {
		for my $name (@{$tr->{lists}{$f}}) {
			my ($c, $r) = $name =~ m@^([^/]+)/(.+)$@ ? ($1, $2) : (undef, $name);
			($c, $r) = (undef, $name) if defined $c && !exists $cause_num->{$c} &&
				exists $reason_num->{$name};
			die "$P: unknown cause '$c' in --$f $name\n"
				if defined $c && !exists $cause_num->{$c};
			die "$P: unknown reason '$r' (the trace names: " .
				join(' ', 'none', map { $tr->{reason_name}{$_} }
				     sort { $a <=> $b } keys %{$tr->{reason_name}}) .
				")\n" unless $r eq 'none' || exists $reason_num->{$r};
		}
	}
}

# ---- keys, combinations and tasks ------------------------------------------------

# Whether the events of task PID pass the task filters (pid, comm,
# --min_count's second pass).
sub task_pass {
	my ($tr, $pid) = @_;
	my $filter = $tr->{filter};
	return passes($filter->{pid}, $pid) && passes($filter->{comm}, $tr->{comm}{$pid} // '?') &&
		(!$tr->{two_pass} || $tr->{pass_no} || $tr->{keep_pid}{$pid}) ? 1 : 0;
}

# A pid not seen before in a migration line: its text TEXT there, with
# the space before it.
sub task_of {
	my ($tr, $text) = @_;
	my ($pid) = $text =~ /^ (\d{1,10})$/ or bad($tr, "malformed event line");
	my $t = $tr->{task_ix}{$pid + 0};
	unless (defined $t) {
		$t = $tr->{task_ix}{$pid + 0} = scalar(@{$tr->{t_pid}});
		push @{$tr->{t_pid}}, $pid + 0;
		push @{$tr->{t_pass}}, $tr->{task_filters} ? task_pass($tr, $pid + 0) : 1;
		push @{$tr->{tn}}, 0;
		# No move yet: key -1, whose pair (-1) no move reverses, so
		# that the time need not rule it out.  The time is a whole
		# number like every timestamp: a store of one number into
		# another is the fast case of perl's scalar copy, and a
		# floating -inf here would make every move's store the slow one.
		$tr->{t_lastkey}[$t] = -1;
		$tr->{t_lastts}[$t] = 0;
		if ($tr->{opt}{topology}) {
			push @$_, 0 for @{$tr->{cls_tn}};
		}
	}
	$tr->{task_tx}{$text} = $t;	# as written (' 007')
	return $t;
}

# The index of the combination of FROM, TO, CAUSE and REASON (numbers),
# and what it tells, once, as far as the options given need it: whether
# it passes the cause, CPU and reason filters, its set of period fields,
# its topology class, its pair of CPUs both ways.
sub combo_of {
	my ($tr, $from, $to, $cause, $reason) = @_;
	my $c = $tr->{combo_ix}{"$from $to $cause $reason"};
	return $c if defined $c;

	$c = $tr->{combo_ix}{"$from $to $cause $reason"} = scalar(@{$tr->{c_from}});
	push @{$tr->{c_from}}, $from;
	push @{$tr->{c_to}}, $to;
	push @{$tr->{c_cause}}, $cause;
	push @{$tr->{c_reason}}, $reason;
	my $cn = $tr->{cause_name}{$cause};
	my $rn = reason_text($tr, $reason);
	if ($tr->{static_filters}) {
		my $filter = $tr->{filter};
		push @{$tr->{c_pass}}, passes($filter->{cause}, $cn) &&
			passes($filter->{cpu_from}, $from) && passes($filter->{cpu_to}, $to) &&
			passes($filter->{reason}, $rn, "$cn/$rn") ? 1 : 0;
	}
	push @{$tr->{c_fs}}, field_set($tr, $from, $to, $cn, $rn) if $tr->{period_ns};
	if ($tr->{opt}{topology}) {
		my $topo = $tr->{topo};
		push @{$tr->{c_cls}}, $topo->{$from} && $topo->{$to} ?
			topo_class($topo, $from, $to) : 0;
	}
	if (defined $tr->{pp_ns}) {
		push @{$tr->{c_pair}}, $from * 65536 + $to;
		push @{$tr->{c_rev}}, $to * 65536 + $from;
	}
	return $c;
}

# The line in $_ again, from the compiled loop: it cut TEXT out at P3 (at
# its end if P3 is negative).
sub uncut {
	my ($p3, $text) = @_;
	substr($_, $p3 < 0 ? length($_) : $p3, 0, $text);
	return $_;
}

# A line that begins with 0 and whose key is new: undef if it is not a
# migration line, else check it whole and return its index.  The key
# is the line's text after the timestamp without the pid: ' CPU FROM TO'
# and ' CAUSE [REASON]' with the end of line, so that there are at most
# CPUs^3 x causes x reasons of them, whatever the trace's length.
sub new_key {
	my ($tr, $line) = @_;
	# Not a migration: the field after the CPU is '.'.
	return undef if substr($line, index($line, " ", 19) + 1, 1) eq '.';
	my ($cpu, $from, $to, $pid, $k, $r, $more) = $line =~
		/^0x[0-9a-f]{16} (\d{1,9}) (\d{1,9}) (\d{1,9}) (\d{1,10}) (\d{1,4})(?: (\d{1,4})((?: \S+)*))?\r?\n?\z/
		or bad($tr, "malformed event line");
	$r ||= 0;
	check_migration($tr, $cpu, $from, $to, $k, $r, $tr->{bad});
	my $c = combo_of($tr, $from + 0, $to + 0, $k + 0, $r + 0);
	my ($p3, $p4) = (18 + length(" $cpu $from $to"), 18 + length(" $cpu $from $to $pid"));
	my $key = substr($line, 18, $p3 - 18) . substr($line, $p4);
	my $kidx = $tr->{kidx};
	# Unknown trailing fields (a later minor version): the key without
	# them, and not remembered, so that they cannot fill memory.
	if (($more // '') ne '') {
		$key = " $cpu $from $to $k" . ($r ? " $r" : '') . "\n";
		return $kidx->{$key} if defined $kidx->{$key};
	}
	if ($tr->{opt}{topology}) {
		for ($from, $to) {
			bad($tr, "--topology: CPU $_ has no '# topology' line") unless $tr->{topo}{$_};
		}
	}
	my $i = $kidx->{$key} = scalar(@{$tr->{k_combo}});
	push @{$tr->{k_combo}}, $c;
	push @{$tr->{kn}}, 0;
	push @{$tr->{k_cpu}}, $cpu + 0;
	# What the loop of the options given reads of the key.
	push @{$tr->{k_pass}}, $tr->{c_pass}[$c] &&
		passes($tr->{filter}{cpu_event}, $cpu + 0) ? 1 : 0 if $tr->{static_filters};
	push @{$tr->{k_fs}}, $tr->{c_fs}[$c] if $tr->{period_ns};
	if ($tr->{opt}{topology}) {
		push @{$tr->{k_cls}}, $tr->{c_cls}[$c];
		push @{$tr->{k_cls_tn}}, $tr->{cls_tn}[$tr->{c_cls}[$c]];
	}
	if (defined $tr->{pp_ns}) {
		$tr->{k_pair}[$i] = $tr->{c_pair}[$c];
		push @{$tr->{k_pair}}, -1;
		push @{$tr->{k_rev}}, $tr->{c_rev}[$c];
		push @{$tr->{k_cause}}, $k + 0;
	}
	return $i;
}

# ---- the window ----------------------------------------------------------------

sub end_window {
	my ($tr, $end) = @_;
	$tr->{win_end} = $end;
	$tr->{ended} = 1;
	periods_until($tr, $end) if $tr->{period_ns} && $tr->{begun};
	return 0;
}

# Whether an event at TS (a mark MARK) is in the window; 0 if not (yet),
# undef once the window has ended.
sub in_window {
	my ($tr, $ts, $mark) = @_;
	return undef if $tr->{ended};
	if ($ts >= $tr->{end_at}) {
		end_window($tr, $tr->{end_at});
		return undef;
	}
	if (defined $mark && $tr->{end_mark}{$mark}) {
		end_window($tr, $ts);
		return undef;
	}
	return 1 if $tr->{begun};
	if (defined $mark && delete $tr->{begin_need}{$mark}) {
		$tr->{begin_at}{$mark} = $ts;
	}
	return 0 if %{$tr->{begin_need}};
	my ($latest) = sort { $b <=> $a } (values %{$tr->{begin_at}},
		(map { $tr->{first_ts} + $_ } @{$tr->{lists}{begin_sec}}), @{$tr->{lists}{begin_ts}});
	return 0 if defined $latest && $latest > $ts;
	$tr->{begun} = 1;
	$tr->{win_start} = $latest // $ts;
	$tr->{period_end} = $tr->{win_start} + $tr->{period_ns} if $tr->{period_ns};
	return 1;
}

# ---- events other than migrations ------------------------------------------------

# A name event E (of MigrateTrace::Format's event_of()), in $_.
sub name_event {
	my ($tr, $e) = @_;
	my $filter = $tr->{filter};
	my ($ts, $cpu, $pid, $name) = @$e{qw(ts cpu pid name)};
	my $in = in_window($tr, $ts, undef);
	$tr->{comm}{$pid} = $name;
	$tr->{names}{$pid}{$name} = 1;
	if (!$filter->{comm}{none} && defined(my $t = $tr->{task_ix}{$pid})) {
		$tr->{t_pass}[$t] = task_pass($tr, $pid);
	}
	return $in unless $in && $tr->{opt}{ps} && !$tr->{pass_no};
	return 1 unless passes($filter->{pid}, $pid) && passes($filter->{comm}, $name) &&
		passes($filter->{cpu_event}, $cpu) && (!$tr->{two_pass} || $tr->{keep_pid}{$pid});
	print ts_text($tr, $ts, $cpu), " $cpu $pid ", ($e->{kind} // "kind$e->{k}"), " $name\n";
	return 1;
}

# The line in $_, not a migration; returns 0 when the window has ended
# (the loop stops there).
sub other_line {
	my ($tr) = @_;
	return 1 if /^#/ || !/\S/;	# comments; later files' headers
	my $e = event_of($tr, $_, $tr->{bad});
	my ($type, $ts, $cpu) = @$e{qw(type ts cpu)};
	if ($type eq 'start') {
		# A CPU's first start clock is the trace's start.
		$tr->{start_clock}{$cpu} //= [$ts, $e->{sec}, $e->{usec}];
	} elsif ($type eq 'name') {
		return defined name_event($tr, $e);
	} elsif ($type eq 'mark') {
		my $in = in_window($tr, $ts, $e->{mark});
		return defined $in unless $in;
		return 1 unless passes($tr->{filter}{cpu_event}, $cpu) && !$tr->{pass_no};
		my $t = ts_text($tr, $ts, $cpu);
		print "$t $cpu $e->{pid} $e->{text}\n" if $tr->{opt}{mark};
		print "$t $cpu $e->{pid} $e->{mark}\n" if $tr->{opt}{mark_decimal};
		return 1;
	} elsif ($type eq 'lost') {
		$tr->{lost_lines} += $e->{count};
		$tr->{lost_gaps}++;
	}
	# Unknown event kinds: a minor-version extension, skipped.
	return defined in_window($tr, $ts, undef);
}

sub print_migration {
	my ($tr, $i, $t, $ts) = @_;
	my $c = $tr->{k_combo}[$i];
	my $cpu = $tr->{k_cpu}[$i];
	my $pid = $tr->{t_pid}[$t];
	print ts_text($tr, $ts, $cpu), " $cpu $tr->{c_from}[$c] $tr->{c_to}[$c] $pid ",
		$tr->{comm}{$pid} // '?', " $tr->{cause_name}{$tr->{c_cause}[$c]}",
		(%{$tr->{reason_name}} ? ' ' . reason_text($tr, $tr->{c_reason}[$c]) : ''), "\n";
}

# ---- the loop ------------------------------------------------------------------

# The arrays and hashes of the trace object that the loop's code names
# (@NAME, %NAME), as perl code that declares each a lexical of the loop's
# own, filled from the object, which then points to it: the subs the loop
# calls add to the same one.  An element of a lexical costs less than one
# through a reference, above all when stored to or counted in (no check
# that the reference is there).
my @loop_arrays = qw(kn tn pc k_fs k_pass t_pass k_cls_tn k_pair k_rev k_cause t_lastts t_lastkey t_pp);
my @loop_hashes = qw(kidx task_tx begin_need pp_causes pp_hist);
# Its scalars, aliased by foreach: the subs it calls see and change the
# same values.
my @loop_scalars = qw(prev begun period_end pp_total migs);

sub own_vars {
	return join('', (map { "my \@$_ = \@{\$tr->{$_}}; \$tr->{$_} = \\\@$_;\n" } @loop_arrays),
		    (map { "my %$_ = %{\$tr->{$_}}; \$tr->{$_} = \\%$_;\n" } @loop_hashes));
}

# The body for each line, put together for the options given.  Four
# index()es find the pid, which a substr() cuts out of the line; a look-up
# of the rest after the timestamp (the key) and one of the pid's text give
# their indexes, and then the line costs a hex() of the line (which stops
# at the space after the timestamp, silently: no 'digit' warnings in the
# loop), a count of the characters that are not lowercase hex digits, x,
# spaces or the line's end (hex() takes upper case and underscores, and
# the rest of the line is the key's, checked once), an order check and
# only the work of the options given.  A key or pid seen for the first
# time is checked whole; a line whose key is not a migration's is another
# event, handled whole again (uncut() puts the pid back).  The arrays and
# hashes the body reads and counts in are lexicals of the loop's own, which
# the trace object then points to (see own_vars()), and its scalars are
# aliases of the object's (@loop_scalars).  Each statement and block costs
# an op or more per line (a block two, entering and leaving it): the body
# is one statement, a list of the steps below, which next and last leave
# early.
sub loop_steps {
	my ($tr) = @_;
	my ($opt, $lists, $pp_ns) = @$tr{qw(opt lists pp_ns)};
	# The task's index is for the task filters and the outputs per task;
	# for the others the look-up only checks the pid.
	my $need_t = $tr->{task_filters} || $tr->{pass_no} || defined $pp_ns ||
		grep { $opt->{$_} } qw(summary_pid topology migrate);
	my @steps = (
		# Lines that do not begin with 0x are comments, blank or malformed.
		'index($_, "0x") and (other_line($tr) ? next : last)',
		'$pt = substr($_, $p3 = index($_, " ", index($_, " ", index($_, " ", 19) + 1) + 1),
		index($_, " ", $p3 + 1) - $p3, "")',
		'$i = $kidx{substr($_, 18)} // new_key($tr, uncut($p3, $pt)) //
		(other_line($tr) ? next : last)',
		($need_t ? '$t = ' : '') . '$task_tx{$pt} // task_of($tr, $pt)',
		'($ts = hex($_)) < $prev || tr/0-9a-fx \r\n//c ? bad_ts($tr) : ($prev = $ts)');
	push @steps, '$ts >= $end_at and (end_window($tr, $end_at), last)'
		if @{$lists->{end_sec}} || @{$lists->{end_ts}};
	# Before the window: a begin mark still awaited, or a begin time not
	# reached, skips the line at once.
	push @steps, '$begun or (%begin_need || $ts < $begin_floor ? next :
		($w = in_window($tr, $ts, undef)) or (defined $w ? next : last))'
		if $tr->{has_begin};
	push @steps, '$ts >= $period_end and periods_until($tr, $ts)' if $tr->{period_ns};
	push @steps, '$k_pass[$i] or next' if $tr->{static_filters};
	push @steps, '$t_pass[$t] or next' if $tr->{task_filters};
	# The counts per key are what --stats and --topology print;
	# --summary_pid, the period series, the listings and the first pass of
	# --min_count do not read them, and a step less is a twentieth of what
	# a line costs.  --pingpong reads only their sum, and period series
	# whose fields all count every migration (--period_all, or only
	# pingpong) only the migrations of each period: without the counts per
	# key, both come from one count in a scalar, which costs less than an
	# element.
	my $kn = !$tr->{pass_no} && ($opt->{stats} || $opt->{topology});
	push @steps, '$kn[$i]++' if $kn;
	push @steps, '$migs++'
		if !$tr->{pass_no} && ($tr->{period_all_only} || (defined $pp_ns && !$kn));
	# --topology counts per task in the array of the key's class, one
	# look-up; the counts per task are their sums (tasks_from_classes()).
	if ($opt->{topology}) {
		push @steps, '$k_cls_tn[$i][$t]++';
	} elsif ($tr->{pass_no} || $opt->{summary_pid}) {
		push @steps, '$tn[$t]++';
	}
	push @steps, '$pc[$k_fs[$i]]++' if $tr->{period_ns} && !$tr->{period_all_only};
	# A ping-pong: the time test first, as it fails more often.  It is
	# counted here, not in a sub: a call costs more than the counts.
	# The key of pp_causes is made of k_cause's numbers, never of $i or
	# $t: a number once turned into a string stays a string as well, and
	# every store into it takes perl's slow path from then on.
	push @steps, '$ts - $t_lastts[$t] <= $pp_ns && $k_rev[$i] == $k_pair[$t_lastkey[$t]] and
		($pp_total++, $t_pp[$t]++, $pp_causes{"$k_cause[$t_lastkey[$t]] $k_cause[$i]"}++,
		 $pp_hist{int(($ts - $t_lastts[$t]) / 1000)}++)',
		'$t_lastkey[$t] = $i', '$t_lastts[$t] = $ts'
		if defined $pp_ns;
	push @steps, 'print_migration($tr, $i, $t, $ts)' if $opt->{migrate} && !$tr->{pass_no};
	return @steps;
}

sub compile_loop {
	my ($tr) = @_;
	my ($end_at, $begin_floor, $pp_ns) = @$tr{qw(end_at begin_floor pp_ns)};
	my ($p3, $pt, $i, $t, $ts, $w);
	my $body = join(",\n\t", map { "($_)" } loop_steps($tr)) . ';';

	# The first line was read with the header: once through the body, in
	# a loop of one for its next and last.
	my $src = own_vars() . "sub {\nno warnings 'digit';\nmy (\$line, \$fh) = \@_;\n" .
		join('', map { "for my \$$_ (\$tr->{$_}) {\n" } @loop_scalars) .
		"if (defined \$line) { for (\$line) {\n\t$body\n} }\n" .
		"return if \$tr->{ended};\nwhile (<\$fh>) {\n\t$body\n}\n" .
		('}' x @loop_scalars) . "\n}\n";
	my $loop = eval $src;
	die "$P: internal error: $@" unless $loop;
	return $loop;
}

# One pass over every input file; the first line of the first file after
# its header is FIRST.
sub run_pass {
	my ($tr, $first) = @_;
	reset_pass($tr);
	my $loop = compile_loop($tr);
	local $SIG{__WARN__} = sub { on_warn($tr, @_) };
	for my $f (@{$tr->{files}}) {
		if (defined $first) {
			$loop->($first, $tr->{fh});
			$first = undef;
		} else {
			open_input($tr, $f);
			$loop->(later_header($tr), $tr->{fh});
		}
		last if $tr->{ended};
	}
	# The last, partial period is not written; its events count in all.
	periods_until($tr, $tr->{prev}) if $tr->{period_ns} && $tr->{begun} && !$tr->{ended};
	tasks_from_classes($tr) if $tr->{opt}{topology};
}

# The count of each task: the sum of its counts per topology class.
sub tasks_from_classes {
	my ($tr) = @_;
	my ($tn, $cls_tn) = @$tr{qw(tn cls_tn)};

	for my $t (0 .. $#$tn) {
		my $n = 0;
		$n += $_->[$t] for @$cls_tn;
		$tn->[$t] = $n;
	}
}

# Reads the events after open_trace(): one pass, or two with --min_count
# (the first finds the tasks to keep).
sub read_events {
	my ($tr) = @_;
	my $lists = $tr->{lists};
	my $first = $tr->{first};

	if (defined $first) {
		my ($ts) = $first =~ /^(0x[0-9a-f]{16}) /;
		$tr->{first_ts} = defined $ts ? hex($ts) : 0;
	}
	my $first_ts = $tr->{first_ts};
	($tr->{end_at}) = sort { $a <=> $b } ((map { $first_ts + $_ } @{$lists->{end_sec}}),
					      @{$lists->{end_ts}});
	$tr->{end_at} //= 9**9**9;
	($tr->{begin_floor}) = sort { $b <=> $a } ((map { $first_ts + $_ } @{$lists->{begin_sec}}),
						   @{$lists->{begin_ts}}, 0);
	$tr->{has_begin} = @{$tr->{begin_mark}} || @{$lists->{begin_sec}} || @{$lists->{begin_ts}};

	if ($tr->{two_pass}) {
		$tr->{pass_no} = 1;
		run_pass($tr, $first);
		my ($tn, $t_pid) = @$tr{qw(tn t_pid)};
		$tr->{keep_pid} = { map { $t_pid->[$_] => 1 }
				    grep { $tn->[$_] >= $tr->{min_count} } 0 .. $#$tn };
		$tr->{pass_no} = 0;
		open_input($tr, $tr->{files}[0]);
		$first = read_header($tr, 1);
	}
	run_pass($tr, $first);
}

# ---- for other tools ---------------------------------------------------------------

# The list options of migrate_stats that the reader looks at.
my @list_keys = map { ($_, "${_}_exclude") } qw(cause comm cpu_event cpu_from cpu_to pid reason);
push @list_keys, qw(begin_mark end_mark begin_sec end_sec begin_ts end_ts);

# FILE read whole, as migrate_stats reads it with the flags of OPT (stats,
# summary_pid, migrate, ...), the lists of LISTS (pid => [...], ...) and
# --pingpong PP_USEC; --topology is added when the trace has '# topology'
# lines.  For tools that show what migrate_stats counts (migrate_report,
# migrate_exporter); a listing (migrate) goes to the selected handle.
sub read_trace {
	my (%a) = @_;
	my %lists = map { $_ => [@{$a{lists}{$_} // []}] } @list_keys;
	my $tr = new_trace(opt => { %{$a{opt} // {}} }, lists => \%lists,
			   filter => make_filters(\%lists), begin_mark => [], end_mark => {},
			   max_cpu => undef, min_count => undef, min_rate => undef,
			   period_ns => undef, ts_forms => ['rel'], files => [$a{file}], two_pass => 0,
			   pp_ns => defined $a{pp_usec} ? $a{pp_usec} * 1000 : undef);
	open_trace($tr);
	$tr->{opt}{topology} = 1 if %{$tr->{topo}};
	read_events($tr);
	return $tr;
}

1;
