#!/usr/bin/perl
# The kernel's '# pid_filter' and '# event_fork' header lines (issue 34,
# set_event_pid): on a small trace written here, every tool that reads a
# trace takes them, exit 0 (they need not know them: they are a minor
# extension); migrate_stats says on stderr and in --stats that the moves
# were filtered by pid, and its series carry the lines on to
# migrate_extract; MigrateTrace::Format parses them and pid_filter_text()
# says what was recorded; bad lines (no pid, a word, a pid beyond 2^22,
# event_fork 2, a line twice) are one line on stderr and status 2.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
unshift(@INC, "$top/scripts");
require MigrateTrace::Format;
my $dir = tmpdir();
my %tool = map { $_ => "$top/scripts/migrate_$_" } qw(top stats exporter extract ctf schedstat report);

my $hdr = <<'EOT';
# version 1.2.0
# nr_cpus 2
# ts_field 1
# dropped 0
# overwritten 0
# pid_filter 100 4194303
# event_fork 1
# cause 1 try_to_wake_up
# cause 2 wake_up_new_task
# loc 3 copy_process
# loc 4 set_task_comm
# loc 5 task_list
# loc 6 mark
# loc 7 lost
# loc 8 saved_comm
# reason 1 wake_affine
# topology 0 0 0 0
# topology 1 1 0 0
EOT
# pid 100, selected, forks 101, followed.
my $events = <<'EOT';
0x000000003b9aca00 0 . . . start_sched_clock 1795238600 250000
0x000000003b9aca00 0 . . 100 5 : worker
0x000000004190ab00 1 0 1 100 1 1
0x000000004d7c6d00 0 . . 101 3 : child
0x0000000059682f00 1 0 1 101 2
0x000000006553f100 0 1 0 100 1
EOT
my $tr = write_file('pids', $hdr . $events);
my $note = 'only the moves of pids 100, 4194303 and of the tasks they forked while tracing were ' .
	   "recorded; the other tasks' are absent, not zero";

# ---- MigrateTrace::Format ------------------------------------------------------------

my %h;
MigrateTrace::Format::read_file(\%h, $tr, sub { });
is_deeply([$h{pid_filter}, $h{event_fork}], [[100, 4194303], 1], 'Format: the pids and event_fork parsed');
is(MigrateTrace::Format::pid_filter_text(\%h), $note, 'Format: pid_filter_text() with event_fork');
is(MigrateTrace::Format::pid_filter_text({ pid_filter => [7] }),
   "only the moves of pid 7 were recorded; the other tasks' are absent, not zero",
   'Format: pid_filter_text() of one pid, without event_fork');
is(MigrateTrace::Format::pid_filter_text({}), undef, 'Format: no pid_filter line, no text');

# ---- every tool takes the lines ----------------------------------------------------

my ($rc, $out, $err) = run("$tool{stats} --stats $tr");
ok($rc == 0, 'migrate_stats --stats: exit 0') or diag($err);
like($out, qr/^pid_filter: \Q$note\E$/m, 'migrate_stats --stats: the summary says so');
like($out, qr/^migrations 3 /m, 'migrate_stats --stats: the recorded moves counted');
is($err, "migrate_stats: note: the trace was filtered by pid: $note\n",
   'migrate_stats: one note on stderr');
($rc, $out, $err) = run("$tool{stats} --migrate $tr");
is($rc . scalar(() = $out =~ /\n/g), '03', 'migrate_stats --migrate: exit 0, the three moves') or diag($err);
my $series = "$dir/series";
($rc, undef, $err) = run("$tool{stats} --period 1000 --period_cause --period_all $tr >$series");
is($rc, 0, 'migrate_stats --period: exit 0') or diag($err);
($rc, $out) = run("grep -E '^# (pid_filter|event_fork) ' $series");
is($out, "# pid_filter 100 4194303\n# event_fork 1\n", 'migrate_stats --period: the series carries the lines');
($rc, $out, $err) = run("$tool{extract} --extract 2 $series");
is($rc, 0, 'migrate_extract on the series: exit 0') or diag($err);
for my $cmd ("$tool{top} --replay --no-clear $tr", "$tool{exporter} --stat $top/doc/sample/stat --trace $tr -o -",
	     "$tool{ctf} $tr $dir/ctf", "$tool{report} -o $dir/report.html $tr") {
	($rc, $out, $err) = run($cmd);
	is($rc, 0, ($cmd =~ m@/(migrate_\w+)@)[0] . ': exit 0') or diag($err);
}

# ---- bad lines -----------------------------------------------------------------------

for my $bad (['# pid_filter', 'no pid'], ['# pid_filter 12 abc', 'a word'],
	     ['# pid_filter 12345678', 'eight digits'], ['# pid_filter -1', 'a sign'],
	     ['# event_fork 2', 'event_fork 2'], ["# pid_filter 1\n# pid_filter 2", 'two lines'],
	     ["# event_fork 1\n# event_fork 1", 'two event_fork lines']) {
	(my $t = $hdr) =~ s/^# pid_filter .*\n# event_fork 1\n/$bad->[0]\n/m;
	my $f = write_file('bad', $t . $events);
	($rc, $out, $err) = run("$tool{stats} --stats $f");
	ok($rc == 2 && $err =~ /\A[^\n]*(?:pid_filter|event_fork)[^\n]*\n\z/, "$bad->[1]: refused, one line")
		or diag("$rc $err");
}
done_testing();
