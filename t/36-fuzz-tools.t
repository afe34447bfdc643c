#!/usr/bin/perl
# Fuzzing of the analysis tools.
#
# 1. A deterministic sweep: every field of every line of a 1.2 trace (all
#    header tags, every event kind and field) and of a 1.2 stat file is
#    replaced, one at a time, by each of a set of bad values.  A checker
#    written here from the formats' documents (not from the tools' code)
#    says whether the result is valid: valid input must give exit 0
#    (stderr empty, or the one loss warning), invalid input exit 2 with
#    exactly one line on stderr.
# 2. Random mutations (truncated lines, garbage and binary fields, huge
#    numbers, lines swapped, dropped, repeated, files cut short) for
#    migrate_stats, migrate_extract, migrate_plot, migrate_ctf and
#    migrate_top --count 1: each run ends in time with status 0, or with
#    status 2 and one line on stderr, and never prints a perl warning.
#
# The random seed comes from the clock unless MT_FUZZ_SEED=N gives it, and
# is always printed (a TAP comment) with the command that repeats the run;
# MT_FUZZ_CASES=N sets the cases per tool (default 200; 0 runs the sweep
# alone).  A failure names its case, options and input, and the command
# again.
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
die "MT_FUZZ_SEED wants a whole number, not '$seed'\n" unless $seed =~ /^\d{1,9}$/;
die "MT_FUZZ_CASES wants a whole number, not '$n'\n" unless $n =~ /^\d{1,6}$/;
# Printed always, as a TAP comment; a failure repeats it with the case.
my $again = "MT_FUZZ_SEED=$seed MT_FUZZ_CASES=$n prove -v t/36-fuzz-tools.t";
diag("fuzz seed $seed ($again repeats this run)");
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
0x0000000100001100 0 0 1 42 1 1
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
# '0' makes a migration from a CPU to itself (0 0 1 becomes 0 0 0, and
# a cause or reason 0); the upper-case timestamp goes on lines whose rest
# was seen before too.
my @sweep = ('', '.', ':', '-1', '0x', '18446744073709551616', "\xff\xfe", 'NaN', '#', "\t",
	     '0x0000000000000000', '7', '0', '0x000000010000100A');

# ---- the checkers: is this input valid? ---------------------------------------
#
# Written from the documents of the formats (formats-1.0.md and 1.2, and
# the rules Documentation/trace/migrate_trace_lite.rst states in "What
# the tools accept" and "Stat format"), not from the tools' code: a field
# is judged a character at a time.

my %naming = map { $_ => 1 } qw(copy_process set_task_comm task_list saved_comm);
my %once = map { $_ => 1 } qw(version nr_cpus ts_field overwrite buffer_size_kb buffer_used
			      dropped overwritten task_list_truncated);

# S is 1 to MAX decimal digits.
sub digits {
	my ($s, $max) = @_;
	return defined $s && length($s) >= 1 && length($s) <= $max && ($s =~ tr/0-9//) == length($s);
}
# S is 0x and MIN to MAX lowercase hex digits.
sub hexa {
	my ($s, $min, $max) = @_;
	return 0 unless defined $s && substr($s, 0, 2) eq '0x';
	my $d = substr($s, 2);
	return length($d) >= $min && length($d) <= $max && ($d =~ tr/0-9a-f//) == length($d);
}
# S is a decimal number: up to INT digits, then a point and 1 to 9 digits.
sub decimal {
	my ($s, $int) = @_;
	my ($i, $f, $more) = split /\./, $s // '', -1;
	return 0 if defined $more || !digits($i, $int);
	return !defined $f || digits($f, 9);
}
# S is printable ASCII, no space.
sub printable {
	my ($s) = @_;
	return defined $s && length($s) && !grep { ord($_) < 33 || ord($_) > 126 } split //, $s;
}
# A line ends in LF or CR LF: the lines here come without their LF.
sub no_cr {
	my ($line) = @_;
	$line = substr($line, 0, -1) if substr($line, -1) eq "\r";
	return index($line, "\r") < 0 ? $line : undef;
}

# A trace: the header first (fields separated by white space), then
# events (separated by single spaces), in time order.
sub trace_ok {
	my @l = @_;
	my (%k, %reason, %name, %seen, $version, $nr, $prev);
	my $in_header = 1;
	for my $raw (@l) {
		my $line = no_cr($raw) // return 0;
		my @w = split ' ', $line;
		if (substr($line, 0, 1) eq '#') {
			next unless $in_header;
			my $tag = $w[1] // '';
			return 0 if $once{$tag} && $seen{$tag}++;
			if ($tag eq 'version') {
				my @v = split /\./, $w[2] // '', -1;
				return 0 unless @w == 3 && @v == 3 && !grep { !digits($_, 99) } @v;
				return 0 unless $v[0] eq '1';
				$version = 1;
			} elsif ($tag eq 'cause' || $tag eq 'loc' || $tag eq 'reason') {
				return 0 unless @w == 4 && digits($w[2], 4) && $w[2] > 0 && printable($w[3]);
				my $space = $tag eq 'reason' ? \%reason : \%k;
				return 0 if exists $space->{$w[2] + 0} || $name{"$tag $w[3]"}++;
				$space->{$w[2] + 0} = [$tag, $w[3]];
			} elsif ($tag eq 'nr_cpus') {
				return 0 unless @w == 3 && digits($w[2], 18) && $w[2] >= 1 && $w[2] <= 8192;
				$nr = $w[2];
			} elsif ($tag =~ /^(dropped|overwritten|buffer_size_kb|buffer_used|task_list_truncated)$/) {
				return 0 unless @w == 3 && digits($w[2], 18);
			} elsif ($tag eq 'cpu_lost') {
				return 0 unless @w == 5 && !grep { !digits($_, 18) } @w[2 .. 4];
				return 0 if $w[2] >= 8192 || $seen{"cpu_lost " . ($w[2] + 0)}++;
			} elsif ($tag eq 'topology') {
				return 0 unless @w == 6 && !grep { !digits($_, 18) } @w[2 .. 5];
				return 0 if grep { $_ >= 8192 } @w[2 .. 4];
				return 0 if $seen{"topology " . ($w[2] + 0)}++;
			} elsif ($tag eq 'ts_field') {
				return 0 unless @w == 3 && $w[2] eq '1';
			} elsif ($tag eq 'overwrite') {
				return 0 unless @w == 3 && ($w[2] eq '0' || $w[2] eq '1');
			}
			next;
		}
		next unless @w;
		if ($in_header) {
			$in_header = 0;
			return 0 unless $version;
		}
		# An event: single spaces; a name runs to the end of the line.
		my @f = split / /, $line, -1;
		my ($head, $name) = ($line, undef);
		if (@f >= 7 && $f[6] eq ':') {
			my @g = split / /, $line, 8;
			($head, $name) = (join(' ', @g[0 .. 6]), $g[7] // '');
			@f = @g[0 .. 6];
		}
		return 0 if grep { !length($_) || /\s/ } @f;
		my $cpu_ok = sub { digits($_[0], 9) && $_[0] < ($nr // 8192) };
		return 0 unless @f >= 6 && hexa($f[0], 16, 16) && $cpu_ok->($f[1]);
		my $ts = hex($f[0]);
		return 0 if defined $prev && $ts < $prev;
		$prev = $ts;
		if ($f[2] ne '.') {
			# TS CPU FROM TO PID K [R [later fields]]
			return 0 if defined $name;
			return 0 unless $cpu_ok->($f[2]) && $cpu_ok->($f[3]) && digits($f[4], 10) && digits($f[5], 4);
			return 0 if $f[2] == $f[3];
			return 0 unless ($k{$f[5] + 0} // [''])->[0] eq 'cause';
			if (@f >= 7) {
				return 0 unless digits($f[6], 4);
				return 0 unless $f[6] == 0 || $reason{$f[6] + 0};
			}
			next;
		}
		return 0 unless $f[3] eq '.';
		if ($f[4] eq '.') {
			return 0 unless @f == 8 && $f[5] eq 'start_sched_clock' && digits($f[6], 12) &&
				$f[6] <= 253402300799 && digits($f[7], 6);
			next;
		}
		return 0 unless digits($f[4], 10) && digits($f[5], 4);
		my $kind = ($k{$f[5] + 0} // [])->[1];
		$kind = undef if defined $kind && $k{$f[5] + 0}[0] ne 'loc';
		if (defined $kind ? $naming{$kind} : defined $name) {
			return 0 unless defined $name;
		} elsif (defined $kind ? $kind eq 'mark' : @f == 7 && hexa($f[6], 1, 999)) {
			return 0 unless @f == 7 && hexa($f[6], 1, 16);
		} elsif (defined $kind && $kind eq 'lost') {
			return 0 unless @f == 7 && digits($f[6], 18);
		}
	}
	return $in_header ? 0 : 1;
}

# A stat file, for migrate_extract --extract 4 (with GMT, --ts_gmt too):
# the header, then rows of white-space separated numbers, one per column
# up to the highest field number (or the timestamp's, if higher).  A
# wall clock needs '# gettimeofday', and can show the years up to 9999.
sub stat_check {
	my ($gmt, @l) = @_;
	my (%field, %fname, %seen, %h);
	my $i = 0;
	for (; $i < @l; $i++) {
		my $line = no_cr($l[$i]) // return 0;
		my @w = split ' ', $line;
		last if @w && substr($line, 0, 1) ne '#';
		next unless @w;
		my $tag = $w[1] // '';
		if ($tag eq 'field') {
			my (undef, undef, $n, $name) = split ' ', $line, 4;
			return 0 unless @w >= 4 && digits($n, 6) && $n >= 2;
			return 0 if $field{$n + 0}++ || $fname{$name}++;
			next;
		}
		next unless $tag =~ /^(version|gettimeofday|period_msec|nr_cpus|ts_field|dropped|sched_clock)$/;
		return 0 if $seen{$tag}++;
		if ($tag eq 'version') {
			my @v = split /\./, $w[2] // '', -1;
			return 0 unless @w == 3 && @v == 3 && !grep { !digits($_, 99) } @v;
			return 0 unless $v[0] eq '1';
		} elsif ($tag eq 'gettimeofday') {
			return 0 unless @w == 4 && digits($w[2], 12) && $w[2] <= 253402300799 && digits($w[3], 6);
		} elsif ($tag eq 'sched_clock') {
			return 0 unless @w == 3 && hexa($w[2], 16, 16);
		} else {
			return 0 unless @w == 3 && digits($w[2], 12);
			return 0 if $tag ne 'dropped' && $w[2] == 0;
			return 0 if $tag eq 'nr_cpus' && $w[2] > 8192;
		}
		$h{$tag} = [@w[2 .. $#w]];
	}
	return 0 unless $h{version} && %field && $field{4} && $h{period_msec};
	return 0 if $gmt && !$h{gettimeofday};
	my $tsf = $h{ts_field} ? $h{ts_field}[0] : 1;
	return 0 if $field{$tsf};
	my ($cols) = sort { $b <=> $a } $tsf, keys %field;
	my $prev;
	for my $raw (@l[$i .. $#l]) {
		my $line = no_cr($raw) // return 0;
		my @w = split ' ', $line;
		next if !@w;
		# No header line after the first row; rows in strictly
		# increasing time.
		return 0 if substr($line, 0, 1) eq '#';
		return 0 unless @w == $cols;
		for my $c (1 .. $cols) {
			return 0 unless decimal($w[$c - 1], $c == $tsf ? 12 : 18);
		}
		my ($int, $frac) = split /\./, $w[$tsf - 1];
		my $t = sprintf("%012d", $int) . substr(($frac // '') . '0' x 9, 0, 9);
		return 0 if defined $prev && $t le $prev;
		$prev = $t;
		next unless $gmt;
		my ($s, $us) = @{$h{gettimeofday}};
		return 0 if $s * 1000 + int(($us + 500) / 1000) + int($w[$tsf - 1] * 1000 + 0.5) > 253402300799999;
	}
	return 1;
}

sub stat_ok { return stat_check(0, @_) }
sub stat_gmt_ok { return stat_check(1, @_) }

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
# MT_FUZZ_CASES=0: the sweep alone (harness/mutants.pl runs it so).
for my $case ($n ? @tools : ()) {
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
		$fail{$why} //= [$o, join("\n", @m), $_];
	}
	my $what = $tool . ($opts->[0] =~ /--(heatmap|timeline)/ ? " --$1" : '');
	is($bad // 0, 0, "$what: $cases mutated inputs, none crashed, hung, warned or said more than one line")
		or diag(join("\n", map { "$_\n  case $fail{$_}[2] of $what, options: $fail{$_}[0]\n  input: " .
					  (substr($fail{$_}[1], 0, 400) =~ s/([^\x20-\x7e])/sprintf('\\x%02x', ord($1))/ger) }
				  grep { defined } (sort keys %fail)[0 .. 4]) . "\nrepeat: $again");
	ok(($refused // 0) > $cases / 10, "$what: refused " . ($refused // 0) . " of them with a clear error");
}
done_testing();
