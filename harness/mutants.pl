#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Mutation testing of the analysis tools: each mutant of a list
# (harness/mutants.txt) is one small change of one line of a script or
# module (a comparison, an off-by-one, a rounding, a swapped variable, a
# dropped condition).  Each is applied in a scratch copy of the tree
# (build/mutants/), never in the work tree, and the t/ files the list
# names for it are run there with prove; a mutant is killed when they
# fail (or run past the time limit), and survives when they pass.  The
# report gives each mutant's fate and the score: killed over all mutants
# run.  An equivalent mutant (one no test can tell from the original)
# carries its argument in the list; it is checked to apply and compile
# but neither run nor counted.
#
# Before the mutants, the tests run once on the unchanged copy: they must
# pass, or the scores would mean nothing.  A mutant whose text no longer
# matches exactly one line, or whose change does not compile, stops the
# run before anything is measured: the list must follow the code.
#
#   mutants.pl [--list FILE] [--jobs N] [--out FILE] [--scratch DIR]
#              [--timeout SEC] [--tests "t/a.t t/b.t"] [--only ID]... [--check]
#
# --tests runs those files for every mutant instead of the list's own (to
# score another test set against the same mutants).
use strict;
use warnings;
use Getopt::Long;
use File::Path qw(make_path remove_tree);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use POSIX qw(strftime);

$| = 1;
my $P = $0;
$P =~ s@.*/@@g;
my $top = abs_path(dirname($0) . '/..');

sub help {
	my ($exitcode) = @_;
	print << "EOM";
Usage: $P [OPTIONS]

Apply each mutant of the list in a scratch copy of the tree, run the
t/ files it names, and report which mutants the tests kill.

Options:
  --list FILE       the mutants (default harness/mutants.txt)
  --jobs N          mutants run side by side (default 2)
  --out FILE        the report (default out/mutants.txt)
  --scratch DIR     the scratch copies (default build/mutants)
  --timeout SEC     a mutant's test run is killed after SEC (default 300)
  --tests "T..."    run these t/ files for every mutant instead of the
                    list's own
  --only ID         run only this mutant (repeatable)
  --check           only check that each mutant applies and compiles
  --help
EOM
	exit($exitcode);
}

my %o = (list => "$top/harness/mutants.txt", jobs => 2, out => "$top/out/mutants.txt",
	 scratch => "$top/build/mutants", timeout => 300, only => []);
GetOptions('list=s' => \$o{list}, 'jobs=i' => \$o{jobs}, 'out=s' => \$o{out},
	   'scratch=s' => \$o{scratch}, 'timeout=i' => \$o{timeout}, 'tests=s' => \$o{tests},
	   'only=s' => $o{only}, 'check' => \$o{check}, 'help|h' => \$o{help})
	or die "$P: bad option; see $P --help\n";
help(0) if $o{help};
die "$P: --jobs wants 1 to 16\n" unless $o{jobs} >= 1 && $o{jobs} <= 16;

# ---- the list ------------------------------------------------------------------

# Records of keyword lines: mutant ID, file PATH, find TEXT, repl TEXT,
# tests T..., and for an equivalent mutant equiv ARGUMENT (continued on
# the lines that follow it with 'equiv' again).
sub read_list {
	my ($file) = @_;
	open(my $fh, '<', $file) or die "$P: $file: $!\n";
	my (@m, %ids);
	while (my $line = <$fh>) {
		chomp $line;
		next if $line =~ /^\s*(#|$)/;
		my ($k, $v) = $line =~ /^(mutant|file|find|repl|tests|equiv)(?:\s+(.*?))?\s*$/
			or die "$P: $file:$.: want 'mutant|file|find|repl|tests|equiv TEXT'\n";
		$v //= '';
		if ($k eq 'mutant') {
			die "$P: $file:$.: mutant '$v' twice\n" if $ids{$v}++;
			die "$P: $file:$.: a mutant's id is letters, digits, '-' and '_'\n"
				unless $v =~ /^[\w-]+$/;
			push @m, { id => $v, at => "$file:$." };
			next;
		}
		die "$P: $file:$.: '$k' before the first 'mutant'\n" unless @m;
		if ($k eq 'equiv') {
			$m[-1]{equiv} = join(' ', grep { length } $m[-1]{equiv} // '', $v);
		} else {
			die "$P: $file:$.: '$k' twice in mutant $m[-1]{id}\n" if defined $m[-1]{$k};
			$m[-1]{$k} = $v;
		}
	}
	close($fh);
	for my $m (@m) {
		for my $k (qw(file find repl)) {
			die "$P: $m->{at}: mutant $m->{id} has no '$k'\n" unless defined $m->{$k};
		}
		die "$P: $m->{at}: mutant $m->{id} changes nothing\n" if $m->{find} eq $m->{repl};
		die "$P: $m->{at}: mutant $m->{id} names no tests\n"
			unless $m->{equiv} || ($m->{tests} // '') =~ /\S/;
		$m->{tests} = [split ' ', $m->{tests} // ''];
	}
	return @m;
}

# The text of FILE with mutant M applied, and the changed line's number;
# dies unless the text to find is on exactly one line.
sub mutate {
	my ($m, $text) = @_;
	my @lines = split /^/, $text;
	my @at = grep { index($lines[$_], $m->{find}) >= 0 } 0 .. $#lines;
	die "$P: mutant $m->{id}: '$m->{find}' is on " . scalar(@at) .
		" lines of $m->{file}, not one: update $o{list}\n" unless @at == 1;
	my $l = $lines[$at[0]];
	die "$P: mutant $m->{id}: '$m->{find}' is twice on line " . ($at[0] + 1) . " of $m->{file}\n"
		if index($l, $m->{find}, index($l, $m->{find}) + 1) >= 0;
	substr($l, index($l, $m->{find}), length($m->{find}), $m->{repl});
	$lines[$at[0]] = $l;
	return (join('', @lines), $at[0] + 1);
}

# The text of file F, and F written with TEXT.
sub text_of {
	my ($f) = @_;
	my $text = do { local (@ARGV, $/) = ($f); <> };
	return $text // die "$P: $f: cannot read it\n";
}

sub spew {
	my ($f, $text) = @_;
	my $fh;
	open($fh, '>', $f) && print($fh $text) && close($fh) or die "$P: $f: $!\n";
}

# Whether the file at PATH (in the copy DIR) compiles; '' or the error.
sub compiles {
	my ($dir, $path) = @_;
	my $f = "$dir/$path";
	my @cmd = text_of($f) =~ /\A#!.*\bsh\b/ ? ('sh', '-n', $f) :
		('perl', "-I$dir/scripts", "-I$dir/t", '-c', $f);
	my $err = `@{[join(' ', map { "'$_'" } @cmd)]} 2>&1`;
	return $? ? (split /\n/, $err)[0] // 'error' : '';
}

my @mutants = read_list($o{list});
if (@{$o{only}}) {
	my %want = map { $_ => 1 } @{$o{only}};
	@mutants = grep { delete $want{$_->{id}} } @mutants;
	die "$P: no mutant " . join(', ', sort keys %want) . " in $o{list}\n" if %want;
}
if (defined $o{tests}) {
	my @t = split ' ', $o{tests};
	$_->{tests} = [@t] for @mutants;
}
die "$P: no mutants in $o{list}\n" unless @mutants;

# ---- the scratch copies ----------------------------------------------------------

# One copy of the tree per job, without build/, out/ and .git.
remove_tree($o{scratch});
my @slots = map { "$o{scratch}/copy$_" } 1 .. $o{jobs};
opendir(my $dh, $top) or die "$P: $top: $!\n";
my @entries = grep { !/^(\.|\.\.|\.git|build|out)$/ } readdir($dh);
closedir($dh);
make_path(@slots, "$o{scratch}/logs");
for my $s (@slots) {
	system('cp', '-a', (map { "$top/$_" } @entries), $s) == 0
		or die "$P: cannot copy the tree to $s\n";
}

# Every mutant applies to exactly one line and compiles.
my %orig;
for my $m (@mutants) {
	my $f = "$slots[0]/$m->{file}";
	$orig{$m->{file}} //= text_of($f);
	(my $text, $m->{line}) = mutate($m, $orig{$m->{file}});
	spew($f, $text);
	my $err = compiles($slots[0], $m->{file});
	spew($f, $orig{$m->{file}});
	die "$P: mutant $m->{id} ($m->{file}:$m->{line}) does not compile: $err\n" if $err;
	for my $t (@{$m->{tests}}) {
		die "$P: mutant $m->{id}: no test $t\n" unless -f "$top/$t";
	}
}

if ($o{check}) {
	print "$P: " . scalar(@mutants) . " mutants apply and compile\n";
	exit(0);
}

# ---- running ------------------------------------------------------------------------

# Tests see the copy as the tree.  Skips are allowed for the parts that
# read a guest's output (out/), which a host-only run does not have; the
# fuzz test runs its deterministic sweep alone; a test program that uses
# t/MtTest.pm ends at its first failure.
$ENV{MT_ALLOW_SKIP} = 1;
$ENV{MT_FAIL_FAST} = 1;
$ENV{MT_FUZZ_SEED} = 1;
$ENV{MT_FUZZ_CASES} = 0;

# Runs TESTS in the copy DIR; the exit status of prove (124 on timeout),
# its output in LOG.
sub run_tests {
	my ($dir, $log, @tests) = @_;
	my $pid = fork() // die "$P: fork: $!\n";
	if (!$pid) {
		chdir($dir) or exit(125);
		$ENV{MT_TOP} = $dir;
		open(STDOUT, '>', $log) or exit(125);
		open(STDERR, '>&', \*STDOUT);
		open(STDIN, '<', '/dev/null');
		# A mutant that loops, printing, must not take the machine's
		# memory before its time is up: 2 GiB of address space a process.
		exec('sh', '-c', 'ulimit -v 2097152; exec timeout -k 10 "$@"', 'sh', $o{timeout},
		     'prove', @tests) or exit(125);
	}
	waitpid($pid, 0);
	return $? >> 8;
}

my $t0 = time();
my %base = map { $_ => 1 } map { @{$_->{tests}} } grep { !$_->{equiv} } @mutants;
my @base = sort keys %base;
if (@base) {
	print "$P: the tests on the unchanged tree: @base\n";
	my $rc = run_tests($slots[0], "$o{scratch}/logs/baseline.log", @base);
	die "$P: the tests fail on the unchanged tree (exit $rc): see $o{scratch}/logs/baseline.log\n"
		if $rc;
}

# The mutants, JOBS at a time, each in a free copy.
my @todo = grep { !$_->{equiv} } @mutants;
my (%running, %result);
my @free = @slots;
my $n = 0;
while (@todo || %running) {
	while (@todo && @free) {
		my $m = shift @todo;
		my $slot = shift @free;
		my $pid = fork() // die "$P: fork: $!\n";
		if (!$pid) {
			my $f = "$slot/$m->{file}";
			spew($f, (mutate($m, $orig{$m->{file}}))[0]);
			my $rc = run_tests($slot, "$o{scratch}/logs/$m->{id}.log", @{$m->{tests}});
			spew($f, $orig{$m->{file}});
			exit($rc > 250 ? 250 : $rc);
		}
		$running{$pid} = [$m, $slot, time()];
	}
	my $pid = waitpid(-1, 0);
	next unless $running{$pid};
	my ($m, $slot, $start) = @{delete $running{$pid}};
	push @free, $slot;
	my $rc = $? >> 8;
	die "$P: mutant $m->{id}: the tests could not run (exit $rc)\n" if $rc == 125;
	$result{$m->{id}} = $rc == 0 ? 'survived' : $rc == 124 ? 'killed (timeout)' : 'killed';
	printf("%3d/%d %-40s %s (%d s)\n", ++$n, scalar(grep { !$_->{equiv} } @mutants), $m->{id},
	       $result{$m->{id}}, time() - $start);
}

# ---- the report ----------------------------------------------------------------------

my @run = grep { !$_->{equiv} } @mutants;
my @survived = grep { $result{$_->{id}} eq 'survived' } @run;
my $killed = @run - @survived;
my @equiv = grep { $_->{equiv} } @mutants;
my $score = @run ? 100 * $killed / @run : 0;
my $text = sprintf("migrate_trace_lite mutation testing, %s, %d s\n", strftime('%Y-%m-%d %H:%M UTC', gmtime()),
		   time() - $t0);
$text .= "list: " . ($o{list} =~ s@^\Q$top\E/@@r) . "; tests: " .
	(defined $o{tests} ? $o{tests} : "each mutant's own") . "\n\n";
$text .= sprintf("%-36s %-40s %s\n", 'mutant', 'where', 'result');
for my $m (@mutants) {
	$text .= sprintf("%-36s %-40s %s\n", $m->{id}, "$m->{file}:$m->{line}",
			 $m->{equiv} ? 'equivalent (not run)' : $result{$m->{id}});
}
$text .= "\nsurvived:\n" . join('', map { "  $_->{id} $_->{file}:$_->{line}: '$_->{find}' -> '$_->{repl}'\n" }
				     @survived) if @survived;
$text .= "\nequivalent, not counted:\n" . join('', map { "  $_->{id}: $_->{equiv}\n" } @equiv) if @equiv;
$text .= sprintf("\nscore: %d of %d mutants killed (%.1f %%), %d survived, %d equivalent not counted\n",
		 $killed, scalar(@run), $score, scalar(@survived), scalar(@equiv));
make_path(dirname($o{out}));
spew($o{out}, $text);
print "\n", $text =~ s/\A.*?\n\n.*?\n\n//sr;
print "$P: report in $o{out}\n";
exit(0);
