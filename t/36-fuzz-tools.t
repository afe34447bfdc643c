#!/usr/bin/perl
# Fuzzing of the analysis tools: mutated traces and stat files (truncated
# lines, garbage and binary fields, huge numbers, lines out of order,
# broken headers).  Each run must end in time with status 0, or with
# status 2 and exactly one line on stderr, and never print a perl warning.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);
use File::Basename qw(dirname);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $n = $ENV{MT_FUZZ_CASES} // 1000;
my $dir = tempdir(CLEANUP => 1);
srand($ENV{MT_FUZZ_SEED} // 20261121);

my @trace = split /\n/, <<'EOT';
# version 1.1.0
# nr_cpus 4
# ts_field 1
# dropped 0
# buffer_used 4096
# cause 1 try_to_wake_up
# cause 2 detach_tasks
# loc 3 copy_process
# loc 4 set_task_comm
# loc 5 task_list
# loc 6 mark
0x0000000100000000 0 . . . start_sched_clock 1700000000 5
0x0000000100000100 1 . . . start_sched_clock 1700000000 7
0x0000000100000200 0 . . 1 5 : init
0x0000000100000300 0 . . 42 5 : worker thread
0x0000000100001000 0 0 1 42 1
0x0000000100002000 1 . . 7 6 0x00000001
0x0000000100003000 1 1 2 42 2
0x0000000100004000 2 . . 43 3 : worker thread
0x0000000100005000 2 2 3 43 1
0x0000000100006000 3 . . 43 4 : renamed
0x0000000100007000 3 3 0 43 2
0x0000000100008000 0 . . 7 6 0x0000000000000002
0x0000000140000000 0 0 3 42 1
EOT
my @stat = split /\n/, <<'EOS';
# version 1.1.0
# period_msec 100
# gettimeofday 1700000000 123456
# ts_field 1
# nr_cpus 4
# field 2 try_to_wake_up
# field 3 detach_tasks
# field 4 migrate
0.000 1 2 3
0.100 0 0 0
0.200 5 1 6
0.300 2 2 4
EOS

my @junk = ('', '.', ':', '-1', '0x', '99999999999999999999999999', '0x' . 'f' x 40,
	    "\x00", "\xff\xfe", "caf\xc3\xa9", 'NaN', 'inf', '1e999', '#', '%s%n', "\t", ' ' x 3,
	    '0x0000000000000000', '18446744073709551616', 'a' x 300);

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

my @stats_opts = ('--stats', '--summary_pid', '--migrate --ts_gmt --ts_abs', '--mark --mark_decimal',
		  '--ps', '--consistency', '--period 1 --period_all --period_cpu_pair',
		  '--stats --begin_mark 1 --end_mark 2', '--migrate --comm "worker thread" --cpu_to 3');
my @extract_opts = ('--extract 4', '--extract 2 --ts_gmt --ts_date', '--max_field',
		    '--field_num migrate', '--extract 3 --begin_msec 100 --end_msec 300');

sub run_case {
	my ($tool, $opts, @lines) = @_;
	open(my $fh, '>:raw', "$dir/in") or die;
	print $fh join("\n", @lines), (rand() < 0.8 ? "\n" : '');
	close($fh);
	my $pid = open(my $out, '-|') // die;
	if (!$pid) {
		open(STDERR, '>', "$dir/err");
		open(STDOUT, '>', '/dev/null');
		alarm(20);
		exec("sh", "-c", "exec $top/scripts/$tool $opts $dir/in");
	}
	close($out);
	my $status = $?;
	my $err = do { local (@ARGV, $/) = ("$dir/err"); <> } // '';
	my $rc = $status >> 8;
	return "killed by signal " . ($status & 127) if $status & 127;
	return "exit $rc" unless $rc == 0 || $rc == 2;
	return "perl warning: $err" if $err =~ / at \S+ line \d+/;
	return "exit 2 with " . ($err =~ tr/\n//) . " lines of stderr: $err"
		if $rc == 2 && ($err =~ tr/\n//) != 1;
	return "exit 0 with stderr: $err" if $rc == 0 && length($err);
	return '';
}

for my $case ([migrate_stats => \@trace, \@stats_opts], [migrate_extract => \@stat, \@extract_opts]) {
	my ($tool, $seed, $opts) = @$case;
	my (%fail, $bad, $refused);
	for my $k (1 .. $n) {
		my @m = mutate(@$seed);
		@m = mutate(@m) if rand() < 0.3;
		my $o = $opts->[int(rand(@$opts))];
		my $why = run_case($tool, $o, @m);
		$refused++ if -s "$dir/err";
		next unless $why;
		$bad++;
		$fail{$why} //= [$o, join("\n", @m)];
	}
	is($bad // 0, 0, "$tool: $n mutated inputs, none crashed, hung, warned or said more than one line")
		or diag(join("\n", map { "$_\n  options: $fail{$_}[0]" } grep { defined } (sort keys %fail)[0 .. 4]));
	ok(($refused // 0) > $n / 10, "$tool: refused " . ($refused // 0) . " of them with a clear error");
}
done_testing();
