#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Write out/series/: the work of this repository as a git-am-able patch
# series against the recorded 6.12 tree, in logical steps, with a cover
# letter.  Each step's files are real intermediate versions: the parts of
# kernel/migrate_trace_lite.c and lib/Kconfig.debug that later patches
# add are cut out of the final files (for the C file, an #ifdef block is
# replaced by its #else branch, which holds the stubs).
#
#   mkseries.pl TOP BUILD OUTDIR
use strict;
use warnings;
use File::Path qw(make_path remove_tree);
use File::Basename qw(dirname);
use File::Copy qw(copy);

my $P = $0;
$P =~ s@.*/@@g;
my ($top, $build, $outdir) = @ARGV;
die "$P: usage: $P TOP BUILD OUTDIR\n" unless defined $outdir;
my $pristine = "$build/pristine";
my $tree = "$build/linux";		# pristine plus every change, as synced
my $repo = "$build/series-repo";
die "$P: no $tree (run make tree first)\n" unless -d $tree && -d $pristine;

my $author = 'migrate_trace_lite developers <dev@migrate-trace-lite.invalid>';
my $date = '2026-11-21T00:00:00+0000';
my %env = (GIT_AUTHOR_NAME => 'migrate_trace_lite developers',
	   GIT_AUTHOR_EMAIL => 'dev@migrate-trace-lite.invalid',
	   GIT_COMMITTER_NAME => 'migrate_trace_lite developers',
	   GIT_COMMITTER_EMAIL => 'dev@migrate-trace-lite.invalid',
	   GIT_AUTHOR_DATE => $date, GIT_COMMITTER_DATE => $date);
@ENV{keys %env} = values %env;

sub run {
	my (@cmd) = @_;
	system(@cmd) == 0 or die "$P: @cmd failed\n";
}

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "$P: $f: $!\n";
	local $/;
	return scalar <$fh>;
}

sub spew {
	my ($f, $text) = @_;
	make_path(dirname($f));
	unlink($f);
	open(my $fh, '>', $f) or die "$P: $f: $!\n";
	print $fh $text;
	close($fh);
}

# Replace each "#ifdef SYM ... [#else ...] #endif" block by its #else
# branch (nothing if it has none), nested conditionals included.
sub strip_ifdef {
	my ($text, @syms) = @_;
	for my $sym (@syms) {
		my @out;
		my ($depth, $state) = (0, '');	# state: '' outside, 'if', 'else'
		for my $l (split /^/, $text) {
			if ($state eq '') {
				if ($l =~ /^#ifdef \Q$sym\E\s*$/) {
					($state, $depth) = ('if', 0);
					next;
				}
				push @out, $l;
				next;
			}
			if ($l =~ /^#\s*if/) {
				$depth++;
			} elsif ($depth == 0 && $l =~ /^#else/) {
				$state = 'else';
				next;
			} elsif ($l =~ /^#endif/) {
				if ($depth == 0) {
					$state = '';
					next;
				}
				$depth--;
			}
			push @out, $l if $state eq 'else';
		}
		die "$P: #ifdef $sym is not closed\n" if $state;
		$text = join('', @out);
	}
	$text =~ s/\n{3,}/\n\n/g;
	return $text;
}

# Drop "config SYM" entries (up to the next config/endmenu/menu line).
sub strip_kconfig {
	my ($text, @syms) = @_;
	my %drop = map { $_ => 1 } @syms;
	my ($skip, @out) = (0);
	for my $l (split /^/, $text) {
		if ($l =~ /^(?:menu)?config (\S+)/) {
			$skip = $drop{$1} ? 1 : 0;
		} elsif ($l =~ /^(endmenu|menu |if |endif|source )/) {
			$skip = 0;
		}
		push @out, $l unless $skip;
	}
	return join('', @out);
}

# MAINTAINERS with the entry listing only FILES.
sub maintainers {
	my (@files) = @_;
	my $text = slurp("$tree/MAINTAINERS");
	my $f = join('', map { "F:\t$_\n" } sort @files);
	$text =~ s/(SCHEDULER - LIGHT WEIGHT MIGRATION TRACE\n(?:[A-Z]:.*\n)*?S:\tMaintained\n)(?:F:.*\n)+/$1$f/
		or die "$P: no MAINTAINERS entry in $tree\n";
	return $text;
}

# ---- the steps -------------------------------------------------------------

my @sched = map { "kernel/sched/$_" } qw(core.c fair.c rt.c deadline.c ext.c sched.h);
my $c_file = 'kernel/migrate_trace_lite.c';
my @later_c = qw(CONFIG_SNSC_LITE_MIGRATION_STAT CONFIG_SNSC_LITE_MIGRATION_BENCH
		 CONFIG_SNSC_LITE_MIGRATION_TRACE_KUNIT_TEST);
my @later_k = qw(SNSC_LITE_MIGRATION_STAT SNSC_LITE_MIGRATION_STAT_DATA_SIZE
		 SNSC_LITE_MIGRATION_BENCH SNSC_LITE_MIGRATION_TRACE_KUNIT_TEST);
my @scripts = map { "scripts/$_" } qw(migrate_stats migrate_extract migrate_plot);
my $st = 'tools/testing/selftests/migrate_trace_lite';
my @selftests = map { "$st/$_" } qw(Makefile config settings mt_helper.c mt_lib.sh
	mt_debugfs.sh mt_migrations.sh mt_full.sh mt_stat.sh mt_stress.sh mt_dmesg.sh);

my %maint;	# files listed so far in MAINTAINERS

my @steps = (
{
	subject => 'sched: report each change of a task\'s CPU with its cause',
	files => ['include/linux/migrate_trace_lite.h', @sched, 'kernel/fork.c', 'fs/exec.c'],
	maint => ['include/linux/migrate_trace_lite.h'],
	body => <<'EOT',
The sched_migrate_task tracepoint tells that a task changed CPU, but not
why: set_task_cpu() is called from a dozen places (wakeup placement,
fork balancing, the load balancer, active balancing, affinity changes,
hotplug, RT and deadline push/pull, NUMA swaps, core scheduling,
sched_ext), and the tracepoint cannot tell them apart.

Add include/linux/migrate_trace_lite.h and call its mt_migrate_task()
right before each set_task_cpu()/__set_task_cpu() that moves a task,
naming the function that decided the move.  move_queued_task(),
__migrate_task() and detach_task() are shared by several deciders, so
they take the cause as a parameter and the compiler makes every caller
name one.  copy_process() and __set_task_comm() report new tasks and
renames, so that a trace can name its tasks.

The hooks are static branches, off until a facility of the following
patches collects; without those facilities they compile away.
EOT
},
{
	subject => 'kernel: add the light weight migration trace',
	files => [$c_file, 'kernel/Makefile', 'lib/Kconfig.debug'],
	c_strip => \@later_c, k_strip => \@later_k,
	maint => [$c_file],
	body => <<'EOT',
CONFIG_SNSC_LITE_MIGRATION_TRACE records every migration with its time,
task, CPUs and cause, and forks, renames and marks, in one buffer per
possible CPU allocated at boot on the CPU's node, and prints them
through debugfs migration_trace/{enable,mark,reset,trace} in the text
format of the 2010 facility it reimplements (version 1.1).

Writers run with interrupts disabled on their own CPU and reserve space
with a local_t: no lock, no wait.  A migration takes 24 bytes.  Records
never straddle a chunk boundary, so an overwrite mode or a consuming
reader can be added without a new format.  The trace stops by itself
when a buffer is full, keeping every record whole and counting the
dropped ones.  Reading stops the writers (flag, synchronize_rcu()) and
merges the per-CPU buffers in time order.

Kernel API: mt_trace_enable() and mt_trace_mark().
EOT
},
{
	subject => 'kernel: add light weight migration statistics',
	files => [$c_file, 'lib/Kconfig.debug'],
	c_strip => [@later_c[1, 2]], k_strip => [@later_k[2, 3]],
	maint => [],
	body => <<'EOT',
A trace fills its buffer in minutes on a busy machine.
CONFIG_SNSC_LITE_MIGRATION_STAT counts migrations per cause in periods
of migration_stat/period_msec instead, for hours or days, sharing the
trace's hooks.

Each CPU counts its current period in its own counters and folds them
into one shared history (68 bytes a period, allocated at boot) when it
passes the period's end, or when a reader asks it by IPI: no division
and no cross-CPU atomic per event.  A CPU hotplug state folds a dead
CPU's counts at once.  migration_stat/stat shows the final rows only,
idle periods as zeros, each with the sum of the causes.  The trace and
the statistics take one timestamp per event, so both put it in the same
period.
EOT
},
{
	subject => 'kernel: migrate_trace_lite: add KUnit tests',
	files => [$c_file, 'kernel/migrate_trace_lite_test.c', 'lib/Kconfig.debug',
		  'kernel/migrate_trace_lite.kunitconfig'],
	c_strip => [$later_c[1]], k_strip => [$later_k[2]],
	maint => ['kernel/migrate_trace_lite_test.c', 'kernel/migrate_trace_lite.kunitconfig'],
	body => <<'EOT',
Test the kernel API, the rules for starting and stopping a trace, and
the chunked record layout of the buffers.  The tests use the real
buffers and leave them empty, so they run at boot, before anybody
traces; kernel/migrate_trace_lite.kunitconfig configures them.
EOT
},
{
	subject => 'kernel: migrate_trace_lite: add a benchmark path',
	files => [$c_file, 'lib/Kconfig.debug'],
	maint => [],
	body => <<'EOT',
CONFIG_SNSC_LITE_MIGRATION_BENCH (default n) adds migration_trace/bench,
which times N calls, with interrupts disabled on the current task, of
the migration hook in whatever state the trace and the statistics are,
of the sched_migrate_task tracepoint, or of an empty loop: the numbers
the cover letter quotes.
EOT
},
{
	subject => 'Documentation: describe the light weight migration trace',
	files => ['Documentation/trace/migrate_trace_lite.rst', 'Documentation/trace/index.rst',
		  'Documentation/ABI/testing/debugfs-migration-trace-lite'],
	maint => ['Documentation/trace/migrate_trace_lite.rst',
		  'Documentation/ABI/testing/debugfs-migration-trace-lite'],
	body => <<'EOT',
Describe both facilities: configuration and memory, the debugfs files
and their errors, the trace and stat formats, every cause, the kernel
API, the analysis scripts and the design; and document the debugfs ABI.
EOT
},
{
	subject => 'scripts: add migrate_stats, migrate_extract and migrate_plot',
	files => [@scripts],
	maint => [@scripts],
	body => <<'EOT',
migrate_stats filters, lists and summarizes a trace in one pass
(windows by mark, time or timestamp; per-cause and per-task counts;
from/to CPU matrices; per-period series).  migrate_extract queries a
stat file and extracts a field as a rate series; migrate_plot draws such
series, or a from/to CPU heatmap, with gnuplot.  Core perl modules only.
EOT
},
{
	subject => 'selftests: add migrate_trace_lite tests',
	files => [@selftests, 'tools/testing/selftests/Makefile'],
	maint => ["$st/"],
	body => <<'EOT',
KTAP tests of both facilities, skipped (exit 4) without them: every
debugfs file's behaviour and refusals; exact counts for a known
workload; equality with sched_migrate_task over the same window; RT
push and pull; a full buffer and a full history; statistics equal to a
trace of the same window, period by period; CPU hotplug; a storm of
migrations, control writes and readers; a clean kernel log.
EOT
},
);

# ---- build the repository ------------------------------------------------------

remove_tree($repo);
make_path($repo);
my %touched;
for my $s (@steps) {
	$touched{$_} = 1 for @{$s->{files}};
}
$touched{MAINTAINERS} = 1;
for my $f (sort keys %touched) {
	next unless -f "$pristine/$f";		# a new file
	make_path(dirname("$repo/$f"));
	copy("$pristine/$f", "$repo/$f") or die "$P: $f: $!\n";
}
chdir($repo) or die "$P: $repo: $!\n";
run(qw(git init -q));
run(qw(git add -A));
run(qw(git commit -q -m), 'pristine: ' . (split /\n/, slurp("$build/version.txt"))[0]);

for my $s (@steps) {
	for my $f (@{$s->{files}}) {
		my $text = slurp("$tree/$f");
		$text = strip_ifdef($text, @{$s->{c_strip} // []}) if $f eq $c_file;
		$text = strip_kconfig($text, @{$s->{k_strip} // []}) if $f eq 'lib/Kconfig.debug';
		spew("$repo/$f", $text);
		chmod((stat("$tree/$f"))[2] & 07777, "$repo/$f");
	}
	$maint{$_} = 1 for @{$s->{maint}};
	spew("$repo/MAINTAINERS", maintainers(keys %maint));
	run(qw(git add -A));
	my $msg = "$s->{subject}\n\n$s->{body}\nSigned-off-by: $author\n";
	spew("$build/series-msg", $msg);
	run(qw(git commit -q -F), "$build/series-msg");
}

# ---- the patches and the cover letter ---------------------------------------------

remove_tree($outdir);
run(qw(git format-patch -q --cover-letter --subject-prefix=PATCH -o), $outdir, 'HEAD~' . scalar(@steps));
my ($cover) = glob("$outdir/0000-*.patch");
my $text = slurp($cover);
my $letter = slurp("$top/harness/cover-letter.txt");
my $bench = -s "$top/out/bench.txt" ? slurp("$top/out/bench.txt") : '';
my @b = split /\n/, $bench;
my $numbers = join("\n", grep { (/^1\./ .. /^$/) || (/^3\./ .. /^$/) || (/^4\./ .. /^$/) } @b);
$numbers ||= '(no benchmark results: run make bench first)';
$letter =~ s/\@BENCH\@/$numbers/;
my ($title, $body) = split /\n\n/, $letter, 2;
$text =~ s/\*\*\* SUBJECT HERE \*\*\*/$title/;
$text =~ s/\*\*\* BLURB HERE \*\*\*\n/$body/;
spew($cover, $text);
print "harness: series written to $outdir (" . scalar(@steps) . " patches and a cover letter)\n";
