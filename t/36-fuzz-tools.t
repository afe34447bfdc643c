#!/usr/bin/perl
# Fuzzing of the analysis tools.
#
# 1. A deterministic sweep: every field of every line of a 1.2 trace (all
#    header tags, every event kind and field) and of a 1.2 stat file is
#    replaced, one at a time, by each of a set of bad values.  A checker
#    written here from the format's rules says whether the result is
#    valid: valid input must give exit 0 (stderr empty, or the one loss
#    warning), invalid input exit 2 with exactly one line on stderr.
# 2. Random mutations (truncated lines, garbage and binary fields, huge
#    numbers, lines swapped, dropped, repeated, files cut short) for
#    migrate_stats, migrate_extract, migrate_plot, migrate_ctf and
#    migrate_top --count 1: each run ends in time with status 0, or with
#    status 2 and one line on stderr, and never prints a perl warning.
#
# The random seed comes from the clock and is printed; MT_FUZZ_SEED=N
# repeats a run, MT_FUZZ_CASES=N sets the cases per tool (default 200).
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $n = $ENV{MT_FUZZ_CASES} // 200;
our $dir = tempdir(CLEANUP => 1);
my $seed = $ENV{MT_FUZZ_SEED} // (time() ^ ($$ << 8)) % 1_000_000;
diag("fuzz seed $seed (MT_FUZZ_SEED=$seed repeats this run)");
srand($seed);

my @trace = split /\n/, <<'EOT';
# version 1.2.0
# nr_cpus 4
# ts_field 1
# overwrite 1
# buffer_size_kb 64
# dropped 0
# overwritten 0
# cpu_lost 1 0 0
# buffer_used 4096
# cause 1 try_to_wake_up
# cause 2 detach_tasks
# loc 3 copy_process
# loc 4 set_task_comm
# loc 5 task_list
# loc 6 mark
# loc 7 lost
# loc 8 saved_comm
# reason 1 wake_affine
# topology 2 2 2 0
# later_tag x y
0x0000000100000000 0 . . . start_sched_clock 1700000000 5
0x0000000100000100 1 . . . start_sched_clock 1700000000 7
0x0000000100000200 0 . . 1 5 : init
0x0000000100000300 0 . . 42 5 : worker thread
0x0000000100001000 0 0 1 42 1 1
0x0000000100002000 1 . . 7 6 0x00000001
0x0000000100003000 1 1 2 42 2
0x0000000100004000 2 . . 43 3 : worker thread
0x0000000100005000 2 2 3 43 1 0
0x0000000100006000 3 . . 43 4 : renamed
0x0000000100006500 3 . . 0 7 2
0x0000000100006800 1 . . 44 8 : kept
0x0000000100006900 1 . . 0 99 a kind of later
0x0000000100007000 3 3 0 43 2 1
0x0000000100008000 0 . . 7 6 0x0000000000000002
0x0000000140000000 0 0 3 42 1 0
EOT
my @stat = split /\n/, <<'EOS';
# version 1.2.0
# period_msec 100
# gettimeofday 1700000000 123456
# ts_field 1
# nr_cpus 4
# dropped 0
# sched_clock 0x0000000100000000
# field 2 try_to_wake_up
# field 3 detach_tasks
# field 4 migrate
# field 5 try_to_wake_up/wake_affine
0.000 1 2 3 1
0.100 0 0 0 0
0.200 5 1 6 2
0.300 2 2 4 0
EOS

my @junk = ('', '.', ':', '-1', '0x', '99999999999999999999999999', '0x' . 'f' x 40,
	    "\x00", "\xff\xfe", "caf\xc3\xa9", 'NaN', '1e999', '#', '%s%n', "\t", ' ' x 3,
	    '0x0000000000000000', '18446744073709551616', 'a' x 300, '7');

# The sweep's values: one of each sort of the above.
my @sweep = ('', '.', ':', '-1', '0x', '18446744073709551616', "\xff\xfe", 'NaN', '#', "\t",
	     '0x0000000000000000', '7');

# ---- the checkers: is this input valid? ---------------------------------------

# A trace, by the rules of formats-1.0.md and 1.2 as the tools apply them.
sub trace_ok {
	my @l = @_;
	my (%cause, %loc, %reason, $version, $nr, $prev);
	my $d = '(\d{1,18})';
	my $in_header = 1;
	for my $line (@l) {
		my @w = split ' ', $line;
		if ($line =~ /^#/) {
			next unless $in_header;
			my $tag = $w[1] // '';
			my $args = join(' ', @w[2 .. $#w]);
			if ($tag eq 'version') {
				return 0 unless @w >= 3 && $w[2] =~ /^1\.\d+\.\d+$/;
				$version = 1;
			} elsif ($tag =~ /^(cause|loc|reason)$/) {
				return 0 unless @w == 4 && $w[2] =~ /^\d{1,4}$/ && $w[2] > 0;
				($tag eq 'cause' ? \%cause : $tag eq 'loc' ? \%loc : \%reason)->{$w[2] + 0} = $w[3];
			} elsif ($tag eq 'nr_cpus') {
				return 0 unless $args =~ /^$d$/ && $w[2] >= 1 && $w[2] <= 8192;
				$nr = $w[2];
			} elsif ($tag =~ /^(dropped|overwritten|buffer_size_kb|buffer_used)$/) {
				return 0 unless $args =~ /^$d$/;
			} elsif ($tag eq 'cpu_lost') {
				return 0 unless $args =~ /^$d $d $d$/ && $w[2] < 8192;
			} elsif ($tag eq 'topology') {
				return 0 unless $args =~ /^$d $d $d $d$/ && !grep { $_ >= 8192 } @w[2 .. 4];
			} elsif ($tag eq 'ts_field') {
				return 0 unless $args eq '1';
			} elsif ($tag eq 'overwrite') {
				return 0 unless $args =~ /^[01]$/;
			}
			next;
		}
		next unless $line =~ /\S/;
		if ($in_header) {
			$in_header = 0;
			return 0 unless $version;
		}
		my $cpu_ok = sub { $_[0] =~ /^\d{1,9}$/ && $_[0] < ($nr // 8192) };
		return 0 unless ($w[0] // '') =~ /^0x[0-9a-f]{16}$/;
		my $ts = hex($w[0]);
		return 0 if defined $prev && $ts < $prev;
		$prev = $ts;
		if ($line !~ / \. / && $line =~ /^0/) {
			my ($c, $f, $t, $p, $k, $r) = $line =~
				/^0x[0-9a-f]{16} (\d{1,9}) (\d{1,9}) (\d{1,9}) (\d{1,10}) (\d{1,4})(?: (\d{1,4})(?: \S+)*)?$/
				or return 0;
			return 0 if $f == $t || !$cause{$k + 0} || ($r && !$reason{$r + 0});
			return 0 unless $cpu_ok->($c) && $cpu_ok->($f) && $cpu_ok->($t);
			next;
		}
		return 0 unless @w >= 6 && $cpu_ok->($w[1]) && $w[2] eq '.' && $w[3] eq '.';
		if ($w[4] eq '.') {
			return 0 unless @w == 8 && $w[5] eq 'start_sched_clock' && $w[6] =~ /^\d{1,12}$/ &&
					$w[6] <= 253402300799 && $w[7] =~ /^\d{1,6}$/;
			next;
		}
		return 0 unless $w[4] =~ /^\d{1,10}$/ && $w[5] =~ /^\d{1,4}$/;
		my $kind = $loc{$w[5] + 0};
		if (defined $kind ? $kind =~ /^(copy_process|set_task_comm|task_list|saved_comm)$/
				  : @w >= 7 && $w[6] eq ':') {
			return 0 unless @w >= 7 && $w[6] eq ':';
		} elsif (defined $kind ? $kind eq 'mark' : @w == 7 && $w[6] =~ /^0x[0-9a-f]+$/) {
			return 0 unless @w == 7 && $w[6] =~ /^0x[0-9a-f]{1,16}$/;
		} elsif (defined $kind && $kind eq 'lost') {
			return 0 unless @w == 7 && $w[6] =~ /^\d{1,18}$/;
		}
	}
	return !$in_header || $version ? 1 : 1;
}

# A stat file, for migrate_extract --extract 4.
sub stat_ok {
	my @l = @_;
	my (%field, $version, $period, $tsf);
	my $i = 0;
	for (; $i < @l && $l[$i] =~ /^#/; $i++) {
		my @w = split ' ', $l[$i];
		my $tag = $w[1] // '';
		if ($tag eq 'field') {
			return 0 unless @w >= 4 && $w[2] =~ /^\d{1,6}$/ && $w[2] >= 2;
			$field{$w[2] + 0} = 1;
		} elsif ($tag eq 'version') {
			return 0 unless ($w[2] // '') =~ /^(\d+)\.\d+\.\d+$/ && $1 == 1;
			$version = 1;
		} elsif ($tag eq 'gettimeofday') {
			return 0 unless @w == 4 && $w[2] =~ /^\d{1,12}$/ && $w[3] =~ /^\d{1,6}$/ && $w[2] <= 253402300799;
		} elsif ($tag =~ /^(period_msec|nr_cpus|ts_field|dropped)$/) {
			return 0 unless @w == 3 && $w[2] =~ /^\d{1,12}$/;
			$period = $w[2] if $tag eq 'period_msec';
			$tsf = $w[2] if $tag eq 'ts_field';
		} elsif ($tag eq 'sched_clock') {
			return 0 unless @w == 3 && $w[2] =~ /^0x[0-9a-f]{16}$/;
		}
	}
	return 0 unless $version && %field && $field{4} && $period;
	my ($max) = sort { $b <=> $a } keys %field;
	my $tc = ($tsf // 1) - 1;
	for my $line (@l[$i .. $#l]) {
		next if $line !~ /\S/ || $line =~ /^#/;
		my @w = split ' ', $line;
		return 0 unless ($w[$tc] // '') =~ /^\d{1,12}(\.\d{1,9})?$/ && @w == $max;
		return 0 if grep { $w[$_] !~ /^\d{1,18}(\.\d{1,9})?$/ } grep { $_ != $tc } 0 .. $#w;
	}
	return 1;
}

# With a wall clock option, the stat must also say when it started.
sub stat_gmt_ok {
	return stat_ok(@_) && grep { /^# gettimeofday / } @_;
}

# ---- running a tool ------------------------------------------------------------------

sub run_case {
	my ($tool, $opts, $text, $stdin, $dir) = @_;
	$dir //= $main::dir;
	open(my $fh, '>:raw', "$dir/in") or die;
	print $fh $text;
	close($fh);
	my $pid = fork() // die;
	if (!$pid) {
		open(STDERR, '>', "$dir/err");
		open(STDOUT, '>', '/dev/null');
		open(STDIN, '<', $stdin ? "$dir/in" : '/dev/null');
		alarm(20);
		exec("sh", "-c", "exec $top/scripts/$tool $opts" . ($stdin ? '' : " $dir/in"));
	}
	waitpid($pid, 0);
	my $status = $?;
	my $err = do { local (@ARGV, $/) = ("$dir/err"); <> } // '';
	return ($status, $err);
}

# '' when the run was well-behaved (and, with WANT 0 or 1, valid or not as
# told), else why not.
sub judge {
	my ($status, $err, $want) = @_;
	my $rc = $status >> 8;
	return "killed by signal " . ($status & 127) if $status & 127;
	return "exit $rc" unless $rc == 0 || $rc == 2;
	return "perl warning: $err" if $err =~ / at (?:\S+|\(eval \d+\)) line \d+/;
	my $lines = ($err =~ tr/\n//);
	return "exit 2 with $lines lines of stderr: $err" if $rc == 2 && $lines != 1;
	return "exit 0 with stderr: $err" if $rc == 0 && length($err) && $err !~ /\A\S+: warning: [^\n]*\n\z/;
	return "valid input refused: $err" if defined $want && $want && $rc;
	return "invalid input accepted (exit 0)" if defined $want && !$want && !$rc;
	return '';
}

# ---- 1. the sweep --------------------------------------------------------------------

# Runs the cases [tool, options, text, valid?, label] on both CPUs; the
# labels of those judged wrong, with why.
sub sweep {
	my @cases = @_;
	my @kids;
	for my $w (0, 1) {
		my $pid = fork() // die;
		if (!$pid) {
			my $d = "$dir/w$w";
			mkdir($d);
			open(my $out, '>', "$d.bad") or die;
			for (my $i = $w; $i < @cases; $i += 2) {
				my ($tool, $opts, $text, $want, $label) = @{$cases[$i]};
				my $why = judge(run_case($tool, $opts, $text, 0, $d), $want);
				print $out "$label: $why\n" if $why;
			}
			close($out);
			exit(0);
		}
		push @kids, $pid;
	}
	waitpid($_, 0) for @kids;
	return map { do { local @ARGV = ("$dir/w$_.bad"); <> } } 0, 1;
}

for my $case (['migrate_stats', '--stats', \@trace, \&trace_ok],
	      ['migrate_extract', '--extract 4', \@stat, \&stat_ok],
	      ['migrate_extract', '--extract 4 --ts_gmt', \@stat, \&stat_gmt_ok]) {
	my ($tool, $opts, $seedfile, $ok) = @$case;
	ok($ok->(@$seedfile), "$tool: the checker takes the unmutated input");
	my ($invalid, @cases) = (0);
	for my $i (0 .. $#$seedfile) {
		my @f = split / /, $seedfile->[$i], -1;
		for my $j (0 .. $#f) {
			for my $v (@sweep) {
				next if $v eq $f[$j];
				my @l = @$seedfile;
				my @g = @f;
				$g[$j] = $v;
				$l[$i] = join(' ', @g);
				my $want = $ok->(@l) ? 1 : 0;
				$invalid++ unless $want;
				push @cases, [$tool, $opts, join("\n", @l) . "\n", $want,
					      "line " . ($i + 1) . " field " . ($j + 1) . " = '$v'"];
			}
		}
	}
	my @bad = sweep(@cases);
	is(join('', @bad[0 .. ($#bad < 9 ? $#bad : 9)]), '',
	   "$tool: " . scalar(@cases) . " one-field changes, $invalid of them invalid: each refused with one line, the others read");
}

# ---- 2. random mutations ----------------------------------------------------------------

sub mutate {
	my @l = @_;
	my $i = int(rand(@l));
	my $kind = int(rand(8));
	if ($kind == 0) {			# truncate a line
		$l[$i] = substr($l[$i], 0, int(rand(length($l[$i]) + 1)));
	} elsif ($kind == 1) {			# replace a field
		my @w = split / /, $l[$i], -1;
		$w[int(rand(@w))] = $junk[int(rand(@junk))] if @w;
		$l[$i] = join(' ', @w);
	} elsif ($kind == 2) {			# delete or add a field
		my @w = split / /, $l[$i], -1;
		rand() < 0.5 ? splice(@w, int(rand(@w)), 1) : push(@w, $junk[int(rand(@junk))]);
		$l[$i] = join(' ', @w);
	} elsif ($kind == 3) {			# swap two lines
		my $j = int(rand(@l));
		@l[$i, $j] = @l[$j, $i];
	} elsif ($kind == 4) {			# random bytes
		$l[$i] = join('', map { chr(int(rand(256))) } 1 .. 1 + int(rand(40)));
	} elsif ($kind == 5) {			# delete a line
		splice(@l, $i, 1);
	} elsif ($kind == 6) {			# duplicate a line
		splice(@l, $i, 0, $l[$i]);
	} else {				# cut the file short
		@l = @l[0 .. $i];
	}
	return @l;
}

my @series = map { sprintf('%d.%03d %.2f', $_ / 10, ($_ % 10) * 100, $_ % 7) } 0 .. 9;
my $plot_opts = "-o $dir/out.png";
my @tools = (
	[migrate_stats => \@trace, ['--stats', '--summary_pid', '--migrate --ts_gmt --ts_abs',
		'--mark --mark_decimal', '--ps', '--consistency', '--period 1 --period_all --period_cpu_pair',
		'--stats --begin_mark 1 --end_mark 2', '--migrate --comm "worker thread" --cpu_to 3',
		'--topology', '--pingpong 100000', '--period 1 --period_reason --min_rate 1',
		'--summary_pid --min_count 2', '--stats --reason wake_affine']],
	[migrate_extract => \@stat, ['--extract 4', '--extract 2 --ts_gmt --ts_date', '--max_field',
		'--field_num migrate', '--extract 3 --begin_msec 100 --end_msec 300', '--extract 5 --ts_gmt --ts_loc']],
	[migrate_plot => \@series, [$plot_opts, "$plot_opts --format svg"], 'stdin'],
	[migrate_plot => \@trace, ["--heatmap $plot_opts", "--timeline $plot_opts", "--timeline --pid 42 $plot_opts"]],
	[migrate_ctf => \@trace, ["- $dir/ctf"], 'stdin'],
	[migrate_top => \@trace, ['--count 1 --no-clear', '--count 1 --no-clear --interval 0.1 -'], 'stdin'],
);
for my $case (@tools) {
	my ($tool, $seedfile, $opts, $stdin) = @$case;
	my $cases = $tool eq 'migrate_plot' ? int($n / 3) : $n;
	my (%fail, $bad, $refused);
	for (1 .. $cases) {
		my @m = mutate(@$seedfile);
		@m = mutate(@m) if rand() < 0.3;
		my $o = $opts->[int(rand(@$opts))];
		my ($status, $err) = run_case($tool, $o, join("\n", @m) . (rand() < 0.8 ? "\n" : ''), $stdin);
		$refused++ if $status >> 8 == 2;
		my $why = judge($status, $err);
		next unless $why;
		$bad++;
		$fail{$why} //= [$o, join("\n", @m)];
	}
	my $what = $tool . ($opts->[0] =~ /--(heatmap|timeline)/ ? " --$1" : '');
	is($bad // 0, 0, "$what: $cases mutated inputs, none crashed, hung, warned or said more than one line")
		or diag(join("\n", map { "$_\n  options: $fail{$_}[0]" } grep { defined } (sort keys %fail)[0 .. 4]));
	ok(($refused // 0) > $cases / 10, "$what: refused " . ($refused // 0) . " of them with a clear error");
}
done_testing();
