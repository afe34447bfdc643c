#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Write out/series/: the work of this repository as a git-am-able patch
# series against the recorded 6.12 tree, in logical steps, with a cover
# letter.  Each step's files are real intermediate versions: the parts of
# kernel/migrate_trace_lite*.[ch], kernel/Makefile and lib/Kconfig.debug
# that later patches add are cut out of the final files (in C, an #ifdef
# block of a later option is replaced by its #else branch, the stubs).
#
# The benchmark path (CONFIG_SNSC_LITE_MIGRATION_BENCH) is the project's
# own and not mailed: it is cut from every patch of the series and written
# apart, as OUTDIR/harness-only/0001-*.patch, which applies on top of the
# series.
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

# Cut a later file's feature FEATURE (pipe, oops) out of an earlier step:
# statements that call mt_FEATURE_*() on a line of their own, conditions
# "|| mt_FEATURE_*()", initializers "= mt_FEATURE_*();" (0, as a stub
# would return), and the include of its header.
sub cut_feature {
	my ($text, $file, @features) = @_;
	for my $f (@features) {
		# A header: the include of the feature's header.
		$text =~ s/^#include "migrate_trace_lite_$f\.h"\n//mg;
		# An if (with its comment) whose whole body is such a call goes too.
		$text =~ s{^[ \t]*(?:/\*[^\n]*\*/\n[ \t]*)?if \([^\n]*\)\n[ \t]*mt_${f}_\w+\([^;\n]*\);[ \t]*\n}{}mg;
		$text =~ s/^[ \t]*mt_${f}_\w+\([^;\n]*\);[ \t]*\n//mg;
		$text =~ s/\s*\|\|\s*mt_${f}_\w+\(\)//g;
		$text =~ s/= mt_${f}_\w+\(\);/= 0;/g;
		die "$P: $file still uses mt_${f}_*() after the cut\n" if $text =~ /\bmt_${f}_\w+/;
	}
	$text =~ s/\n{3,}/\n\n/g;
	return $text;
}

# The benchmark path is not mailed: after its #ifdef blocks, cut its
# init call, the stub that stands for it and its line in the file list.
sub cut_bench {
	my ($text, $file) = @_;
	$text =~ s/^[ \t]*mt_bench_init\(\w+\);\n//mg;
	$text =~ s/^#include "migrate_trace_lite_bench\.h"\n//mg;
	$text =~ s/^static inline void mt_bench_init\(struct dentry \*dir\)\n\{\n\}\n//mg;
	$text =~ s{^ \*   migrate_trace_lite_bench\.c .*\n}{}m;
	die "$P: $file still refers to the benchmark path after the cut\n"
		if $text =~ /\bmt_bench_|migrate_trace_lite_bench|SNSC_LITE_MIGRATION_BENCH/;
	$text =~ s/\n{3,}/\n\n/g;
	return $text;
}

# Cut the definitions of functions NAMES out of a C file: each with the
# comment right above it, up to its closing brace at column 0.
sub cut_defs {
	my ($text, $file, @names) = @_;
	for my $n (@names) {
		$text =~ s{(?:^/\*\*?\n(?:^ \*[^\n]*\n)*?^ \*/\n|^/\*[^\n]*\*/\n)?^(?![ \t]*(?:/\*|\*|//))[^\n;]*\b\Q$n\E\((?:[^\n]*\n)*?^\}\n(?:late_initcall\(\Q$n\E\);\n)?\n?}{}m
			or die "$P: $file: no definition of $n to cut\n";
	}
	$text =~ s/^#if IS_ENABLED\(CONFIG_KUNIT\)\n\n*#endif\n//mg;
	$text =~ s/\n{3,}/\n\n/g;
	return $text;
}

# Cut the declarations of NAMES (one or more lines up to ";") out of a header.
sub cut_decls {
	my ($text, $file, @names) = @_;
	for my $n (@names) {
		$text =~ s/^[^\n(]*\b\Q$n\E\([^;]*\);\n//m
			or die "$P: $file: no declaration of $n to cut\n";
	}
	return $text;
}

# The series' first part, the scheduler's annotations and the trace event,
# stands without the trace and the statistics: the hooks fire the event
# and nothing else, and the base layer holds the hooks' key, the names
# and the notes, not the control files' helpers.  The trace's patch then
# adds what is cut here, as a consumer.
my @base_later = qw(mt_parse_ulong mt_parse_enable mt_read_ulong mt_parse_reset
		    mt_write_reset mt_clock_offset_now);
my @hooks_later = qw(mt_count mt_log_slow_and_count mt_log_filled_slow_and_count
		     mt_log_exiting_and_count mt_log_and_count_at mt_move_begin
		     mt_move_rare_exiting mt_move_rare mt_move_traced mt_move_fast mt_log_move_at
		     mt_wakeup_plain mt_wakeup_rare mt_wakeup_noted mt_wakeup_out_of_line
		     mt_task_rare __mt_set_task_comm migrate_trace_lite_init);

sub cut_to_part1 {
	my ($text, $file) = @_;
	if ($file eq 'kernel/migrate_trace_lite.c') {
		$text =~ s{\A(// SPDX[^\n]*\n)/\*\n.*?\*/\n}{$1/*
 * The migration hooks: the scheduler reports each change of a task's
 * CPU through mt_migrate_task(), with the function that decided it (the
 * cause) and, where known, why (the reason).  This file resolves the
 * reason and fires the trace event sched_migrate_reason, whose
 * registration turns the hooks on.
 */
}s or die "$P: $file: no head comment\n";
		$text =~ s/^#include <linux\/(?:debugfs|init|sched\/clock)\.h>\n//mg;
		$text =~ s/^#include "migrate_trace_lite\.h"$/#include "migrate_trace_lite_base.h"/m
			or die "$P: $file: no include of the hooks' header\n";
		$text = cut_defs($text, $file, @hooks_later);
		$text =~ s{^/\*\n \* The hooks' rare cases are out of their line.*?\*/\n\n}{}ms
			or die "$P: $file: no comment on the rare cases\n";
		# The event is the hooks' one consumer.
		$text =~ s/(\ttrace_sched_migrate_reason\(p, new_cpu, why & 0xff, why >> 8\);\n)(?:\t[^\n]*\n)+(?=\}\n)/$1/
			or die "$P: $file: no consumers after the event\n";
		$text =~ s{^/\*\n \* A move while sched_migrate_reason is enabled: .*?\*/\n}{/* A move while sched_migrate_reason is enabled: out of the hooks' line. */\n}ms
			or die "$P: $file: no comment on the event's path\n";
		# The hooks fire the event, their one consumer, and do nothing else.
		$text =~ s/^\tif \(mt_hooks_rare\(\)\) \{\n.*?^\}\n/\tif (trace_sched_migrate_reason_enabled())\n\t\tmt_event_wakeup(p, new_cpu);\n}\n/ms
			or die "$P: $file: no rare case in the wakeup hook\n";
		$text =~ s/^\tif \(mt_hooks_rare\(\)\) \{\n\t\tmt_task_rare\(p, new_cpu, why\);\n.*?^\}\n/\tif (trace_sched_migrate_reason_enabled())\n\t\tmt_event_task(p, new_cpu, why);\n}\n/ms
			or die "$P: $file: no rare case in the move hook\n";
		$text =~ s/^(\tunsigned int from = task_cpu\(p\)), reason;\n/$1;\n/m
			or die "$P: $file: no wakeup hook's variables\n";
		# The key the trace's filter shares with the event is the trace's.
		$text =~ s/^\t\/\* tracepoints_mutex serializes the only writers of mt_event_held\. \*\/\n\tif \(!mt_event_held\)\n\t\tstatic_branch_inc\(&mt_rare_key\);\n//m
			or die "$P: $file: no rare key in mt_event_reg()\n";
		$text =~ s/^\tif \(mt_event_held\)\n\t\tstatic_branch_dec\(&mt_rare_key\);\n//m
			or die "$P: $file: no rare key in mt_event_unreg()\n";
		$text =~ s/^ \* Logs the move if the trace runs, else counts it if the stat runs\.  A\n \* / * A /mg == 2
			or die "$P: $file: no two hooks that log or count\n";
		$text =~ s/^ \* Fires sched_migrate_reason first if it is enabled\.\n/ * Fires sched_migrate_reason if it is enabled.\n/mg;
		# A new task: only a stale deferral of its pid to drop.
		$text =~ s{^ \* Logs \@p's name, and drops a deferral noted for an earlier task of its\n \* pid\.  The barrier pairs with a starting trace's walk of the task list,\n \* so that the task is named by one or the other\.(?:  A trace that follows\n \* forks selects \@p if its parent \(current\) is selected\.)?\n}{ * Drops a deferral noted for an earlier task of its pid.\n}m
			or die "$P: $file: no __mt_copy_process() text\n";
		$text =~ s{^\t/\* Selected before its first move, which is wake_up_new_task\(\)'s\. \*/\n\tif \(mt_filtering\(\) \|\| mt_instances_on\(\)\)\n\t\tmt_follow_fork\(p\);\n}{}m
			or die "$P: $file: no fork following\n";
		$text =~ s{^\t/\*\n\t \* \@p is linked into the task list.*?\tsmp_mb\(\);\n}{}ms
			or die "$P: $file: no barrier in __mt_copy_process()\n";
		$text =~ s/^\tmt_log_comm\(MT_EV_COPY_PROCESS, p\);\n//m
			or die "$P: $file: no name of a new task\n";
		$text =~ s/^\t(mt_take_deferred\(p\);)\n(?=\}\n)/\t$1\n/m;
	} elsif ($file eq 'kernel/migrate_trace_lite_base.c') {
		$text =~ s{\A(// SPDX[^\n]*\n)/\*\n.*?\*/\n}{$1/*
 * The migration hooks' state: the names of causes and reasons, the hooks'
 * static key, and what the scheduler's note sites write under it.
 */
}s or die "$P: $file: no head comment\n";
		$text =~ s{^/\*\n \* The reasons each cause can have: .*?^\};\n\n}{}ms
			or die "$P: $file: no mt_cause_reasons[]\n";
		$text =~ s/^DEFINE_STATIC_KEY_FALSE\(mt_rare_key\);[^\n]*\n//m
			or die "$P: $file: no mt_rare_key\n";
		$text = cut_defs($text, $file, @base_later);
		$text =~ s{^/\* Serializes every control operation of mt and mstat, and reader opens\. \*/\nDEFINE_MUTEX\(mt_mutex\);\n}{}m
			or die "$P: $file: no mt_mutex\n";
		$text =~ s/^#include <linux\/(?:fs|uaccess|sched\/clock)\.h>\n//mg;
		$text =~ s/ \* innermost lock: taken under mt_mutex or tracepoints_mutex, it takes\n \* none but the jump label's own, so that the trace event's registration\n \* never waits for a control operation of mt or mstat\.\n/ * innermost lock: taken under tracepoints_mutex, it takes none but the\n * jump label's own.\n/
			or die "$P: $file: no comment on mt_hooks_mutex\n";
	} elsif ($file eq 'kernel/migrate_trace_lite_base.h') {
		$text =~ s{\A(/\* SPDX[^\n]*\n)/\*\n.*?\*/\n}{$1/*
 * The migration hooks' state (migrate_trace_lite_base.c): the names of
 * causes and reasons, the hooks' key and the deferral table.
 */
}s or die "$P: $file: no head comment\n";
		$text =~ s{^/\* The reasons each cause can have, .*?^extern const u64 mt_cause_reasons\[MT_CAUSE_END\];\n\n}{}ms
			or die "$P: $file: no reasons of the causes\n";
		$text =~ s{^/\*\n \* On while a hook has more to do than its fast path.*?^static __always_inline bool mt_hooks_rare\(void\)\n\{\n[^\n]*\n\}\n\n}{}ms
			or die "$P: $file: no mt_hooks_rare()\n";
		$text = cut_decls($text, $file, @base_later);
		$text =~ s{^/\* Serializes every control operation of mt and mstat, and reader opens\. \*/\nextern struct mutex mt_mutex;\n\n}{}m
			or die "$P: $file: no mt_mutex\n";
		$text =~ s{^/\* Allocations on first use may fail.*?\n\n}{}ms or die "$P: $file: no MT_GFP\n";
		$text =~ s{^/\*\n \* The clock of both facilities is local_clock\(\).*?\*/\n#define MT_CLOCK_NAME[^\n]*\n}{}ms
			or die "$P: $file: no clock\n";
		$text =~ s/^struct (?:dentry|seq_buf);\n//mg;
	} elsif ($file eq 'include/linux/migrate_trace_lite.h') {
		# Renames, which only the trace names tasks by, come with it.
		$text =~ s/^void __mt_set_task_comm\(struct task_struct \*p\);\n//m
			or die "$P: $file: no __mt_set_task_comm()\n";
		$text =~ s{^/\*\*\n \* mt_set_task_comm\(\).*?^\}\n\n}{}ms
			or die "$P: $file: no mt_set_task_comm()\n";
		$text =~ s/^#define mt_set_task_comm\(p\)\t*\\\n[^\n]*\n//m
			or die "$P: $file: no mt_set_task_comm() stub\n";
		$text =~ s/  See Documentation\/trace\/migrate_trace_lite\.rst\.$//m
			or die "$P: $file: no link to the documentation\n";
		# The barrier pairs with the trace's start, which names new tasks.
		$text =~ s{^\t/\* Without jump labels the key is a load: not before \@p is linked\. \*/\n\tif \(!IS_ENABLED\(CONFIG_JUMP_LABEL\)\)\n\t\tsmp_mb\(\);[^\n]*\n}{}m
			or die "$P: $file: no barrier in mt_copy_process()\n";
		# The trace's kernel API comes with it, its stubs too.
		$text = cut_defs($text, $file, qw(mt_trace_enable mt_trace_mark));
		$text =~ s/^#include <linux\/errno\.h>\n//m;
	}
	die "$P: $file still refers to mt or mstat after the cut: $1\n"
		if $text =~ /\b(mt_trace_running|ms_stat_running|mt_log_comm|mt_mutex|mt_parse_\w+|\w*set_task_comm|mt_filtering|mt_rare_key|mt_hooks_rare|mstat|facilit\w+|Documentation\/\S+|MT_REASONS_\w+)\b/ &&
		   ($file ne 'include/linux/migrate_trace_lite.h' || $1 !~ /set_task_comm/);
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
my $k = 'kernel/migrate_trace_lite';
# The trace's layers; the stat's header comes with its stubs, which the
# statistics' patch fills.
my @trace_c = map { "$k$_" } ('_base.c', '_base.h', '_filter.c', '_filter.h', '_ring.c', '_ring.h', '_readers.c', '_readers.h',
				'_trace.c', '_trace.h', '_control.c', '_control.h', '_output.c',
				'_output.h', '_snap.c', '_snap.h', '_instances.c', '_instances.h',
				'.c', '.h');
# What later patches add: their #ifdef blocks, Kconfig entries and
# Makefile lines are left out of the earlier steps.
my @trace = qw(SNSC_LITE_MIGRATION_TRACE SNSC_LITE_MIGRATION_TRACE_BUF_SIZE);
my @stat = qw(SNSC_LITE_MIGRATION_STAT SNSC_LITE_MIGRATION_STAT_DATA_SIZE);
my @kunit = qw(SNSC_LITE_MIGRATION_TRACE_KUNIT_TEST);
my @bench = qw(SNSC_LITE_MIGRATION_BENCH);
my @scripts = sort map { s@^\Q$top\E/@@r } grep { -f && !/\.pm$/ } glob("$top/scripts/migrate_*");
# The perl tools' modules, next to them (scripts/MigrateTrace/*.pm).
my $modules = 'scripts/MigrateTrace';
my @modules = sort map { s@^\Q$top\E/@@r } glob("$top/$modules/*.pm");
my $st = 'tools/testing/selftests/migrate_trace_lite';
my @selftests = sort map { s@^\Q$top\E/@@r } glob("$top/$st/*");
my $sample = 'samples/migrate_trace_lite';
my @sample = sort map { s@^\Q$top\E/@@r } grep { !/\.patch$/ } glob("$top/$sample/*");

my %maint;	# files listed so far in MAINTAINERS

my @steps = (
{
	subject => 'sched: report each change of a task\'s CPU with its cause and reason',
	files => ['include/linux/migrate_trace_lite.h', 'include/linux/sched.h', @sched, 'kernel/fork.c'],
	strip => [@trace, @stat, @bench],
	part1 => 1,
	maint => ['include/linux/migrate_trace_lite.h'],
	body => <<'EOT',
The sched_migrate_task tracepoint tells that a task changed CPU, but not
why: set_task_cpu() is called from a dozen places (wakeup placement,
fork balancing, the load balancer, active balancing, affinity changes,
hotplug, RT and deadline push/pull, NUMA swaps, core scheduling,
sched_ext), and the tracepoint cannot tell them apart, nor what inside
each of them decided.

Add include/linux/migrate_trace_lite.h and call its mt_migrate_task()
once each move is certain, right before the set_task_cpu() or
__set_task_cpu(), the deactivate_task() or the move_queued_task() or
detach_task() that does it, naming the function that decided the move
(the cause).  Where the caller knows more, the hook carries a reason
too: the load balancer's idle and migration types.  The placement
decisions of select_task_rq() and its class helpers (wake_affine, an
idle core, CPU or SMT sibling, the slow path, the RT lowest runqueue,
the deadline later runqueue, the fallback) are noted with mt_noted() in
a per-CPU slot, tagged with the task, where they are made, and taken
by the hook of the move that follows.  A stopper's reason (an affinity
change, exec balancing, NUMA balancing) travels in a byte of struct
migration_arg, set by whoever queues it, so that no note has to survive
until the stopper runs; the byte fills padding on 64-bit and exists
only with the hooks, and mt_arg_set_reason() stores it.  A stopper or
NUMA swap that leaves the move to the task's next wakeup notes its
reason by pid (mt_note_deferred()); copy_process() drops such a note
left for an earlier task of the new task's pid.

The hooks and notes are static branches, off until a consumer of the
next patches collects.  Without CONFIG_SNSC_LITE_MIGRATION_HOOKS, which
the next patch adds, they compile away: every object the patch touches
is then instruction-identical to the unpatched one.
EOT
},
{
	subject => 'sched: add the trace event sched_migrate_reason',
	files => ["$k.c", "${k}_base.c", "${k}_base.h", 'include/trace/events/migrate_trace_lite.h',
		  'kernel/Makefile', 'lib/Kconfig.debug'],
	strip => [@trace, @stat, @kunit, @bench],
	part1 => 1,
	maint => ["$k.c", "${k}_base.c", "${k}_base.h", 'include/trace/events/migrate_trace_lite.h'],
	body => <<'EOT',
Give the cause and the reason of each move to the tools people already
use: the hooks of the previous patch fire sched:sched_migrate_reason for
every move they see, with the task, its CPUs, the cause and the reason,
so that ftrace, trace-cmd, perf, bpftrace and Perfetto read the why.
It fires right before sched_migrate_task for the same move, in the same
interrupts-off section, and also for the placements of new tasks, which
have no sched_migrate_task.

Its print format names the cause and the reason with
__print_symbolic(), whose pairs come from the lists that make the enums;
the lists spell out each number, so the format file shows numbers
paired with names and user space needs nothing resolved.  Filters
select by the numbers ("cause == 1" keeps the wakeups).

CONFIG_SNSC_LITE_MIGRATION_HOOKS builds the hooks.  The event's
registration callbacks take and drop a reference on the hooks' static
key, so enabling the event turns the hooks on and disabling it turns
them back into NOPs; the references are counted under a mutex of their
own, the innermost lock, and the first one clears the notes after a
grace period, so that no hook takes a note from before it.  The hooks
resolve the reason out of their line, and only while the key is on.
There is no option for the event itself, as for no trace event:
TRACEPOINTS compiles it out, and the hook sites are the same NOPs with
or without it.

This patch and the previous one are the series' first part, which
stands alone.  The next ones add two more consumers of the same hooks,
the migration trace and statistics.
EOT
},
{
	subject => 'debugfs: let users make and remove directories of instances',
	files => ['fs/debugfs/inode.c', 'include/linux/debugfs.h'],
	body => <<'EOT',
A debugfs facility that keeps several instances of its files, each with
its own state, has no way to let users make one: debugfs refuses mkdir.
tracefs has tracefs_create_instance_dir() for its instances/ directory;
add the same to debugfs.

debugfs_create_instance_dir() creates a directory whose mkdir and rmdir
call the owner's callbacks with the name of the directory.  The
callbacks create and remove it with the usual debugfs calls, which lock
the parent, so the VFS's locks are dropped around them, as tracefs
does; they serialize among themselves.

The next patch's migration trace is the user: migration_trace/
instances/NAME is a trace of its own, beside the top one.
EOT
},
{
	subject => 'kernel: add the light weight migration trace',
	files => [@trace_c, "${k}_stat.h", 'kernel/Makefile', 'lib/Kconfig.debug',
		  'include/linux/migrate_trace_lite.h', 'fs/exec.c'],
	strip => [@stat, @kunit, @bench],
	cut => [qw(pipe oops)],
	maint => [@trace_c],
	body => <<'EOT',
CONFIG_SNSC_LITE_MIGRATION_TRACE records every migration with its time,
task, CPUs, cause and reason, and forks, renames and marks, in one ring
of chunks per possible CPU, and prints them through debugfs
migration_trace/ in the text format of the 2010 facility it
reimplements, extended as version 1.2 (a seventh field, the reason;
topology and loss accounting in the header; lost and saved_comm lines).

Writers run with interrupts disabled on their own CPU: no lock, no wait.
A migration takes 16 bytes (a 32-bit time delta from the record before
it).  Each CPU's records are in time order whatever its clock does: a
record whose clock stepped back keeps the time of the one before it,
and is counted in the header's clamped.
The buffers are allocated by a write of buffer_size_kb (so that the
start is light), or else by the first start, on each CPU's node, and
freed by a reset.  Without overwrite, a full buffer stops the trace,
counting what it drops; with overwrite the buffers are a flight
recorder that recycles its oldest chunks and counts what they held.
Overwrite may change while the trace runs: each chunk switch does as it
says then, and the counts go by the ring, not the flag.  After the
stop, the trace file is a snapshot of every CPU's ring merged by time
with a min-heap.

The clock is local_clock(); the header names it and gives its offset
from sched_clock(), ftrace's "local" clock, so that a trace lines up
with a trace-cmd recording of the same run.

The files are layers, each with a header that includes the ones below
it: _base (names, parsing, the hooks' key), _ring (the per-CPU ring,
written locklessly and ready for a consuming reader), _readers (what
readers share with writers and control), _trace (the trace's state,
names, start and stop), _control (the files of migration_trace/ and
the kernel API), _output (the text), _snap (the trace file, the rings
merged by time), and migrate_trace_lite.c, the
hooks, which resolve a move's reason and take its timestamp.

__set_task_comm() now reports renames, and copy_process() new tasks,
so that the trace names its tasks.

Kernel API: mt_trace_enable() and mt_trace_mark().
EOT
},
{
	subject => 'kernel: migrate_trace_lite: read the trace while it runs',
	files => ["$k.c", "$k.h", "${k}_pipe_merge.c", "${k}_pipe_merge.h", "${k}_pipe.c", "${k}_pipe.h",
		  "${k}_instances.c", "${k}_instances.h", 'kernel/Makefile'],
	strip => [@stat, @kunit, @bench],
	cut => [qw(oops)],
	maint => ["${k}_pipe_merge.c", "${k}_pipe_merge.h", "${k}_pipe.c", "${k}_pipe.h"],
	body => <<'EOT',
A trace that can be read only after it stopped is limited by its
buffers.  migration_trace/trace_pipe hands out the records of every CPU
merged in time order while the trace runs, each once, and gives each
chunk read to its end back to its writer, so a reader that keeps up
means the trace never fills.

The reader copies a record out of its chunk and keeps it only if the
chunk's seq did not change meanwhile (the flight recorder may recycle
it), as a seqcount reader does.  A record is handed out only once no CPU
can still log an earlier one, which the reader learns without disturbing
any CPU: each writer is busy from before it reads the clock until it has
committed, and a CPU with nothing left to read that is not busy logs
nothing older than the reader's own clock, read before it looked.  No
IPI, no wakeup of an idle CPU, which would change the placements being
traced.  A line of a CPU whose clock disagrees with the others' is
handed out at the time of the line before it, and counted.  A reader
the flight recorder overtook gets a lost line with the count it missed.
A writer that starts a chunk or logs a name or a mark while the reader
sleeps wakes it through an irq_work; the reader's timeout and a timer
for pollers cover migrations within a chunk, which do not look.  The
reader's state outlives the open file, so that the next reader continues
where the last one left; one reader at a time (EBUSY), and not with the
trace file.  copy_to_user() runs outside the lock that migration_trace/
stats takes.
EOT
},
{
	subject => 'kernel: migrate_trace_lite: dump the trace on panic or oops',
	files => ["$k.c", "$k.h", "${k}_oops.c", "${k}_oops.h", 'kernel/Makefile',
		  'Documentation/admin-guide/kernel-parameters.txt'],
	strip => [@stat, @kunit, @bench],
	maint => ["${k}_oops.c", "${k}_oops.h"],
	body => <<'EOT',
With the flight recorder on, the records just before a crash are the
ones a developer wants.  migration_trace/dump_on_oops=N, or the boot
parameter mt_dump_on_oops[=N], makes a panic or an oops print the
header and the newest N records of every CPU, merged by time, to the
console after the prefix "mt_dump: ", so that the analysis tools read
them back from a console log.

The dump's memory is set aside at boot; it finds each CPU's newest N
records through the chunk headers, so its work follows N and not the
size of the buffers; it touches the NMI watchdog per chunk and line,
runs once per trace, and is best effort: other CPUs may still run after
an oops, so it clears the trace flag and waits a moment for a record in
flight.  A reset waits for a dump in progress before it frees the
buffers, for 10 s at most (a dump that a second oops killed never ends):
then it fails with EBUSY and keeps them.
EOT
},
{
	subject => 'kernel: add light weight migration statistics',
	files => ["$k.h", "${k}_stat.c", "${k}_stat.h", 'kernel/Makefile', 'lib/Kconfig.debug'],
	strip => [@kunit, @bench],
	maint => ["${k}_stat.c", "${k}_stat.h"],
	body => <<'EOT',
A trace is detail; a question asked over hours needs counts.
CONFIG_SNSC_LITE_MIGRATION_STAT counts migrations per cause and per
cause and reason in periods of migration_stat/period_msec, for hours or
days, sharing the trace's hooks.

Each CPU counts its current period in its own counters and folds them
into one shared history of 64-bit counters (allocated by the first start
and freed by a reset) when it passes the period's end, or when a reader
asks it by IPI: no division and no cross-CPU atomic per event.  A CPU
hotplug state folds a dead CPU's counts at once.  migration_stat/stat
shows the final rows only, idle periods as zeros, each with the sum of
the causes and, after it, a column per cause and reason.  While the
trace runs, the statistics take its timestamp, so both put an event in
the same period; alone, they read no clock until the tick count nears
the period's end, from where every event reads it.
EOT
},
{
	subject => 'kernel: migrate_trace_lite: add KUnit tests',
	files => ["${k}_test.h", "${k}_test.c", "${k}_order_test.c", "${k}_pipe_test.c", "${k}_reasons_test.c",
		  "${k}_kthreads_test.c", "${k}_event_test.c", "${k}_filter_test.c",
		  "${k}_instances_test.c", "$k.kunitconfig", 'kernel/Makefile', 'lib/Kconfig.debug'],
	strip => [@bench],
	maint => ["${k}_test.h", "${k}_test.c", "${k}_order_test.c", "${k}_pipe_test.c", "${k}_reasons_test.c",
		  "${k}_kthreads_test.c", "${k}_event_test.c", "${k}_filter_test.c",
		  "${k}_instances_test.c", "$k.kunitconfig"],
	body => <<'EOT',
Test the kernel API and the state each start/stop rule leaves, a logged
migration read back field by field, the rings' chunks with and without
overwrite, time records, the merge of two CPUs by time, the statistics'
periods, reason columns and full history, and when they read the clock
alone.  A second suite gives two CPUs a clock that steps back in the
middle of a trace and reads it through the trace file's merge,
trace_pipe and the dump on oops, each of which must keep every CPU's
times, and all times, from going back; and it checks the dump's seek to
the newest records of a ring.  A third suite pins every reason's name
and what each hook makes of a scheduler decision, and takes three
reasons on real kernel paths with kernel threads of its own
(wake_current_cpu, an affinity move by migrate_enable(),
push_cpu_stop's rt).  A fourth holds the trace event's reference on the
hooks' static key against the trace's and the statistics' in every
order of enables and disables and when all three are toggled at once,
and gives a probe of the event the cause and reason of a move.  A fifth
makes and removes instances: their names, the bound, rmdir's refusals,
and an instance filtered by cause and pid that records exactly the top
trace's wakeups of a task, at the same times.  The tests use
the real buffers and leave them reset, so they are an init section
suite: they run at boot, before anybody traces, and debugfs offers no
way to run them again; kernel/migrate_trace_lite.kunitconfig configures
them.
EOT
},
{
	subject => 'samples: add a migrate_trace_lite module that marks around its work',
	files => [@sample, 'samples/Kconfig', 'samples/Makefile'],
	strip => [@bench],
	maint => ["$sample/"],
	body => <<'EOT',
mt_trace_enable() and mt_trace_mark() are exported for modules; add one
that uses them, as a starting point for a driver or a test that wants
its own work cut out of a trace.

Loaded, it marks the beginning of a piece of work, a kernel thread that
hops from one online CPU to the next by changing its own affinity (a
migration each time), and its end; the analysis tools' --begin_mark and
--end_mark then select the work.  start=1 starts the trace first; mark
and hops set the marks and the number of moves.
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
and their errors, reading while tracing, loss accounting, the dump on
panic, the trace and stat formats, every cause and reason, the kernel
API, the analysis scripts and the design; and document the debugfs ABI.
EOT
},
{
	subject => 'scripts: add the migration trace\'s recorder and analysis tools',
	files => [@scripts, @modules],
	maint => [@scripts, "$modules/"],
	body => <<'EOT',
migrate_record records a command's migrations, streaming trace_pipe to
a file (or running the flight recorder), and puts the debugfs settings
back afterwards, also on SIGINT and SIGTERM; it is POSIX sh, for small
targets.  migrate_stats filters, lists and summarizes a trace in one
pass (windows by mark, time or timestamp; per-cause, per-reason and
per-task counts; from/to CPU matrices; topology classes; ping-pongs;
per-period series); its parts are perl modules in scripts/MigrateTrace/
(the rules of a trace, which migrate_top and migrate_ctf read by too,
the reader, the summaries, the period series, topology and ping-pongs,
timestamps), which it finds next to its real path (Cwd's abs_path).
migrate_extract queries a stat file and extracts a field as a rate
series; migrate_plot draws such series, from/to CPU heatmaps and
per-task timelines with gnuplot.  migrate_exporter writes the stat's
totals as Prometheus metrics for node_exporter's textfile collector, on
the target; migrate_report writes one self-contained HTML page of a
trace and its stat, its charts inline SVG.  The perl tools use core
modules only.
EOT
},
{
	subject => 'selftests: add migrate_trace_lite tests',
	files => [@selftests, 'tools/testing/selftests/Makefile'],
	maint => ["$st/"],
	body => <<'EOT',
KTAP tests of both facilities, skipped (exit 4) without them: every
debugfs file's behaviour and refusals; exact counts for a known
workload; equality with sched_migrate_task over the same window; known
reasons; trace_pipe over twenty buffers, blocking, O_NONBLOCK and poll;
the flight recorder against ftrace's per-CPU sequences; the recorder;
allocation failures; RT push and pull; a full buffer and a full
history; statistics equal to a trace of the same window, period by
period, cause by cause and reason by reason; NUMA balancing and core
scheduling on a machine that has them; CPU hotplug; a storm of
migrations, control writes and readers; a clean kernel log.
EOT
},
);

# Not mailed: the benchmark path, written apart on top of the series.
my $bench_step = {
	subject => 'kernel: migrate_trace_lite: add a benchmark path',
	files => ["$k.c", "$k.h", "${k}_trace.c", "${k}_trace.h", "${k}_stat.c", "${k}_stat.h",
		  "${k}_bench.c", "${k}_bench.h", 'kernel/Makefile',
		  'lib/Kconfig.debug'],
	maint => ["${k}_bench.c"],
	body => <<'EOT',
CONFIG_SNSC_LITE_MIGRATION_BENCH (default n) adds migration_trace/bench,
which times N calls, with interrupts disabled on the current task, of
the migration hook in whatever state the trace and the statistics are,
of the sched_migrate_task tracepoint, of local_clock() alone (the floor
every traced event pays), or of an empty loop: the numbers the cover
letter quotes; and the dump on oops's merge of the newest N records, to
show that its time does not grow with the buffers.

The hook calls log made-up moves of the current task, without its
pi_lock: they go only into a trace or a collection the benchmark itself
started from a reset state ("start mt|mstat|both"), which the trace and
the statistics count as they start; while a user's collects, a hook run
fails with EBUSY.

The project's own tool: not for mainline.
EOT
};

# ---- build the repository ------------------------------------------------------

remove_tree($repo);
make_path($repo);
my %touched;
for my $s (@steps, $bench_step) {
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

# Commit step $s: its files as they are at that point of the series.
sub commit_step {
	my ($s) = @_;
	for my $f (@{$s->{files}}) {
		my $text = slurp("$tree/$f");
		my @later = @{$s->{strip} // []};
		my @cut = @{$s->{cut} // []};
		if ($f =~ /^kernel\/migrate_trace_lite.*\.[ch]$/ || $f eq 'include/linux/migrate_trace_lite.h') {
			$text = strip_ifdef($text, map { "CONFIG_$_" } @later);
			$text = cut_feature($text, $f, @cut);
			$text = cut_bench($text, $f) if grep { $_ eq $bench[0] } @later;
			$text = cut_to_part1($text, $f) if $s->{part1};
		} elsif ($f eq 'lib/Kconfig.debug') {
			$text = strip_kconfig($text, @later);
			$text =~ s/  The trace and the statistics\n\t  below select these hooks; without TRACEPOINTS, only they can\.//
				or die "$P: $f: no word on who selects the hooks\n" if $s->{part1};
		} elsif ($f eq 'kernel/Makefile') {
			my %drop = map { ("CONFIG_$_" => 1) } @later;
			my $cut = join('|', @cut) || '-';
			$text = join('', grep { (!/\(CONFIG_(\w+)\)/ || !$drop{"CONFIG_$1"}) &&
						!/migrate_trace_lite_(?:$cut)(?:_merge)?\.o/ }
					 split /^/, $text);
		}
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
commit_step($_) for @steps;

# ---- the patches and the cover letter ---------------------------------------------

remove_tree($outdir);
run(qw(git format-patch -q --cover-letter --subject-prefix=PATCH -o), $outdir, 'HEAD~' . scalar(@steps));
# The first part, which stands alone (harness/part1.sh boots it).
my @names = map { s@.*/@@r } sort glob("$outdir/[0-9]*.patch");
spew("$outdir/part1", join('', map { "$names[$_]\n" }
			   grep { $steps[$_ - 1]{part1} } 1 .. $#names));
# The benchmark path, apart: not a patch of the series (check-series.sh
# reads OUTDIR/[0-9]*.patch only).
commit_step($bench_step);
run(qw(git format-patch -q -o), "$outdir/harness-only", 'HEAD~1');
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
print "harness: series written to $outdir (" . scalar(@steps) . " patches and a cover letter;" .
	" the benchmark path apart in harness-only/)\n";
