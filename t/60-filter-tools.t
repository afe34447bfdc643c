#!/usr/bin/perl
# The kernel's '# filter' header line in the tools that t/59 does not
# cover, on a small trace written here whose counts are checked by hand
# (below): migrate_top marks each cause the filter left out '-' and says
# what was recorded; migrate_exporter --trace exports the filter as an
# info metric's label, the topology classes of the recorded moves, and
# no class of zeros for a trace that recorded nothing; migrate_extract
# --extract on migrate_stats' series of the trace refuses a field whose
# moves the filter left out and prints the others with a note;
# migrate_ctf keeps the line's words in the CTF metadata's env;
# migrate_schedstat compares only the kernel's counters all of whose
# moves the filter recorded, and marks the others '-', not a DIFF.  On the shipped sample, which has no filter line,
# each output has the digest of the one before the tools knew the line
# (MT_PRINT_DIGESTS=1 prints new ones after a change on purpose).
use strict;
use warnings;
use feature 'state';
use Test::More;
use Digest::SHA qw(sha256_hex);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file slurp prom_samples);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $dir = tmpdir();
my %tool = map { $_ => "$top/scripts/migrate_$_" } qw(top stats exporter extract ctf schedstat);

# CMD run from the top, so that file names read as the digests saw them.
sub at_top {
	my ($cmd) = @_;
	return run("cd '$top' && $cmd");
}

# ---- no filter line: today's bytes ----------------------------------------------------

my %digest = (
	'scripts/migrate_top --replay --no-clear doc/sample/trace' =>
		'df28aeb08887dc2b8784f73ca5001576e66b1d9afbeb3590519d78986046b4c7',
	'scripts/migrate_exporter --stat doc/sample/stat -o -' =>
		'96defb2f0c701fc25fb1f2f0f8ffca560c2d2d088b09a26c4f06c733fe4f9979',
	'scripts/migrate_exporter --stat doc/sample/stat --trace doc/sample/trace -o -' =>
		'3cee965406a7f7d5dc1920711cec0c0fac2677b2d7c9092e9fca34fb53a5118f',
	'scripts/migrate_extract --extract 19 doc/sample/stat' =>
		'46c2253916054fe02273dc07730b3643c4054a5502dbb2049f59b6d6c25da618',
	'scripts/migrate_stats --period 100 --period_cause --period_all doc/sample/trace | scripts/migrate_extract --extract 2' =>
		'81e03047ffb9ce962f66b0315a136f2a5f704018e491ac3c49445ac2b3e8062a',
);
for my $cmd (sort keys %digest) {
	my ($rc, $out, $err) = at_top($cmd);
	if ($ENV{MT_PRINT_DIGESTS}) {
		diag("\t'$cmd' =>\n\t\t'" . sha256_hex($out) . "',");
		next;
	}
	ok($rc == 0 && $err eq '', "no filter: $cmd exits 0, silent") or diag($err);
	is(sha256_hex($out), $digest{$cmd}, "no filter: $cmd writes today's bytes");
}

# ---- a filtered trace, counted by hand ---------------------------------------------

# Four causes, six reasons; CPUs 0 and 1 are SMT siblings, 2 another core
# of their LLC, 3 on node 1.  The filter recorded try_to_wake_up whole
# and detach_tasks/lb_busy_load; wake_up_new_task and detach_one_task
# were not recorded at all.  The moves, at 1.1 s to 2.1 s:
#
#   s    from to pid cause/reason                class
#   1.1  0    1  100 try_to_wake_up/wake_affine  core
#   1.3  1    2  100 try_to_wake_up/idle_cpu     llc
#   1.5  2    3  101 try_to_wake_up/none         cross_node
#   1.7  3    0  101 detach_tasks/lb_busy_load   cross_node
#   1.9  0    2  100 try_to_wake_up/wake_affine  llc
#   2.1  2    0  100 detach_tasks/lb_busy_load   llc
#
# try_to_wake_up 4 (wake_affine 2, idle_cpu 1, none 1), detach_tasks 2
# (lb_busy_load 2), 6 in all; pid 100 (worker) 4, pid 101 (server) 2.
my $words = 'try_to_wake_up detach_tasks/lb_busy_load';
my $hdr = <<"EOT";
# version 1.2.0
# nr_cpus 4
# ts_field 1
# dropped 0
# overwritten 0
# filter $words
# cause 1 try_to_wake_up
# cause 2 wake_up_new_task
# cause 3 detach_tasks
# cause 4 detach_one_task
# loc 5 copy_process
# loc 6 set_task_comm
# loc 7 task_list
# loc 8 mark
# loc 9 lost
# loc 10 saved_comm
# reason 1 wake_affine
# reason 2 idle_cpu
# reason 3 lb_busy_load
# reason 4 lb_busy_util
# reason 5 lb_idle_task
# reason 6 active_balance
# topology 0 0 0 0
# topology 1 0 0 0
# topology 2 2 0 0
# topology 3 3 3 1
EOT
my $events = <<'EOT';
0x000000003b9aca00 0 . . . start_sched_clock 1795238600 250000
0x000000003b9aca00 0 . . 100 7 : worker
0x000000003b9aca00 0 . . 101 7 : server
0x000000004190ab00 1 0 1 100 1 1
0x000000004d7c6d00 2 1 2 100 1 2
0x0000000059682f00 3 2 3 101 1
0x000000006553f100 0 3 0 101 3 3
0x00000000713fb300 2 0 2 100 1 1
0x000000007d2b7500 0 2 0 100 3 3
0x00000000bebc2000 0 . . 100 6 : worker
EOT
my $ft = write_file('filtered', $hdr . $events);
(my $plain = $hdr) =~ s/^# filter .*\n//m;
my $pt = write_file('plain', $plain . $events);
(my $none = $hdr) =~ s/^# filter .*$/# filter 0/m;
my $nt = write_file('none', $none . $events =~ s/^0x\S+ \d+ \d+ .*\n//mgr);
my $note = "only " . join(", ", split " ", $words) . " were recorded; the rest is absent, not zero";
my $note0 = 'nothing was recorded (filter 0): every move is absent, not zero';

# ---- migrate_top ---------------------------------------------------------------------

# The last screen of migrate_top on FILE: its filter line (or undef) and
# the rows of its table per cause, "CAUSE PER_SEC TOTAL".
sub top_screen {
	my ($file) = @_;
	my ($rc, $out, $err) = run("$tool{top} --replay --no-clear --interval 10 $file");
	my ($last) = (split /^(?=migrate_top )/m, $out)[-1] // '';
	my ($filter) = $last =~ /^filter: (.*)$/m;
	my ($causes) = $last =~ /^cause\s+per sec\s+total\n(.*?)\n\n/ms;
	return ($rc, $err, $filter, [map { join(' ', split) } split /\n/, $causes // '']);
}

my ($rc, $err, $filter, $rows) = top_screen($ft);
ok($rc == 0 && $err eq '', 'migrate_top: a filtered trace, exit 0, silent') or diag($err);
is($filter, $note, 'migrate_top: the screen says what the filter recorded');
# One screen of 1.0 s to 3.2 s (--interval 10): 4 / 2.2 = 1.8, 2 / 2.2 = 0.9.
is_deeply($rows, ['try_to_wake_up 1.8 4', 'detach_tasks 0.9 2', 'wake_up_new_task - -', 'detach_one_task - -'],
	  "migrate_top: the recorded causes' counts, then the causes the filter left out, '-'");
($rc, $err, $filter, $rows) = top_screen($pt);
ok(!defined $filter && "@$rows" eq 'try_to_wake_up 1.8 4 detach_tasks 0.9 2',
   'migrate_top: the same moves without the filter line: no filter line, no - row');
($rc, $err, $filter, $rows) = top_screen($nt);
ok($rc == 0 && $filter eq $note0 && "@$rows" eq join(' ', map { "$_ - -" }
	qw(try_to_wake_up wake_up_new_task detach_tasks detach_one_task)),
   'migrate_top: filter 0: every cause reads -') or diag("$err @$rows");

# ---- migrate_exporter ----------------------------------------------------------------

my $NS = 'migrate_trace_lite';

my $exp = "$tool{exporter} --stat $top/doc/sample/stat -o -";
($rc, my $out, $err) = run("$exp --trace $ft");
ok($rc == 0 && $err eq '', 'migrate_exporter: a filtered trace, exit 0, silent') or diag($err);
is_deeply(prom_samples($out, "${NS}_trace_filter_info"), { $words => 1 },
	  "migrate_exporter: the trace's filter, as an info metric's label");
# core 0 -> 1; llc 1 -> 2, 0 -> 2, 2 -> 0; cross_node 2 -> 3, 3 -> 0.
is_deeply(prom_samples($out, "${NS}_topology_migrations_total"), { core => 1, llc => 3, cross_llc => 0, cross_node => 2 },
	  'migrate_exporter: the topology classes of the recorded moves');
my $prom = write_file('filtered.prom', $out);
SKIP: {
	skip('promtool is not installed', 1) unless `command -v promtool 2>/dev/null`;
	my $lint = `promtool check metrics <$prom 2>&1`;
	is("$? $lint", '0 ', 'migrate_exporter: promtool check metrics accepts the info metric');
}
($rc, $out, $err) = run("$exp --trace $pt");
ok($rc == 0 && $out !~ /filter/ && prom_samples($out, "${NS}_topology_migrations_total")->{llc} == 3,
   'migrate_exporter: the same moves without the filter line: the same classes, no filter') or diag($err);
($rc, $out, $err) = run("$exp --trace $nt");
ok($rc == 0 && $out !~ /topology_migrations/, 'migrate_exporter: filter 0: no topology series of zeros')
	or diag($err);
ok(prom_samples($out, "${NS}_trace_filter_info")->{0} && exists prom_samples($out, "${NS}_trace_lost_total")->{''},
   'migrate_exporter: filter 0: the filter and the losses all the same');
like(`$tool{exporter} --help`, qr/^  ${NS}_trace_filter_info\{filter\}/m, 'migrate_exporter --help names the metric');

# ---- migrate_extract -----------------------------------------------------------------

# Periods of 1 s from the first event (1.0 s): [1, 2) holds the moves at
# 1.1 to 1.9 s, [2, 3) the one at 2.1 s; [3, 3.2] is not complete.
my $series = "$dir/series";
($rc, undef, $err) = run("$tool{stats} --period 1000 --period_cause --period_all --period_reason " .
			 "--period_cpu $ft >$series");
is($rc, 0, 'migrate_stats writes the series of the filtered trace') or diag($err);
my %want = ('try_to_wake_up' => "0.000 4.00\n1.000 0.00\n", 'detach_tasks' => "0.000 1.00\n1.000 1.00\n",
	    'migrate' => "0.000 5.00\n1.000 1.00\n", 'from cpu: 0' => "0.000 2.00\n1.000 0.00\n",
	    'try_to_wake_up/wake_affine' => "0.000 2.00\n1.000 0.00\n",
	    'detach_tasks/lb_busy_load' => "0.000 1.00\n1.000 1.00\n");
for my $name (sort keys %want) {
	my (undef, $n) = run("$tool{extract} --field_num '$name' $series");
	chomp $n;
	($rc, $out, $err) = run("$tool{extract} --extract $n $series");
	ok($rc == 0 && $out eq $want{$name} && $err eq "migrate_extract: note: the series was filtered: $note\n",
	   "migrate_extract: '$name', recorded: its rates, and a note") or diag("rc $rc: $out$err");
}
for my $name ('wake_up_new_task', 'detach_one_task', 'detach_tasks/none', 'detach_tasks/lb_idle_task',
	      'wake_up_new_task/none') {
	my (undef, $n) = run("$tool{extract} --field_num '$name' $series");
	chomp $n;
	($rc, $out, $err) = run("$tool{extract} --extract $n $series");
	ok($rc == 2 && $out eq '' && $err eq "migrate_extract: $series: field $n ($name) was not recorded: $note\n",
	   "migrate_extract: '$name', which the filter left out, is refused") or diag("rc $rc: $out$err");
}
(my $s0 = slurp($series)) =~ s/^# filter .*$/# filter 0/m;
my (undef, $n) = run("$tool{extract} --field_num migrate $series");
chomp $n;
($rc, $out, $err) = run("$tool{extract} --extract $n " . write_file('series0', $s0));
ok($rc == 2 && $err =~ /\(migrate\) was not recorded: \Q$note0\E\n\z/, 'migrate_extract: filter 0: even migrate is refused')
	or diag($err);
(my $s2 = slurp($series)) =~ s/^(# filter .*\n)/$1$1/m;
($rc, $out, $err) = run("$tool{extract} --extract $n " . write_file('series2', $s2));
ok($rc == 2 && $out eq '' && $err =~ /\Amigrate_extract: \S+:6: a second '# filter' line\n\z/,
   'migrate_extract: two filter lines are one line and status 2') or diag($err);
($rc, $out, $err) = run("$tool{stats} --period 1000 --period_all $pt | $tool{extract} --extract 2");
ok($rc == 0 && $out eq "0.000 5.00\n1.000 1.00\n" && $err eq '',
   'migrate_extract: the series of the same moves without the filter line: no note');

# ---- migrate_ctf ---------------------------------------------------------------------

# The CTF trace of FILE: its metadata's env block, or undef.
sub ctf_env {
	my ($file, $out) = @_;
	my ($rc, undef, $err) = run("$tool{ctf} $file $out");
	diag($err) if $rc;
	my ($env) = slurp("$out/metadata") =~ /^env \{\n(.*?)^\};/ms;
	return $env;
}

is(ctf_env($ft, "$dir/ctf"), qq{\ttracer_name = "migrate_trace_lite";\n\ttrace_format = "1.2.0";\n\tnr_cpus = 4;\n} .
   qq{\tfilter = "$words";\n}, "migrate_ctf: the env holds the trace's filter");
is(ctf_env($pt, "$dir/ctf-plain"), qq{\ttracer_name = "migrate_trace_lite";\n\ttrace_format = "1.2.0";\n\tnr_cpus = 4;\n},
   'migrate_ctf: the same moves without the filter line: no filter in the env');
like(ctf_env($nt, "$dir/ctf-none"), qr/^\tfilter = "0";$/m, 'migrate_ctf: filter 0 in the env');
SKIP: {
	skip('babeltrace2 is not installed', 1) unless `command -v babeltrace2 2>/dev/null`;
	($rc, $out, $err) = run("babeltrace2 -c sink.text.details $dir/ctf");
	like($out, qr/^\s+filter: \Q$words\E$/m, "migrate_ctf: babeltrace2 reads the env's filter") or diag($err);
}
# The sample's CTF trace, metadata and streams, as before the filter.
($rc, undef, $err) = run("$tool{ctf} $top/doc/sample/trace $dir/ctf-sample");
my $ctf = join('', map { slurp("$dir/ctf-sample/$_") } qw(metadata stream_0 stream_1 stream_2 stream_3));
diag("\tmigrate_ctf doc/sample/trace: '" . sha256_hex($ctf) . "'") if $ENV{MT_PRINT_DIGESTS};
is(sha256_hex($ctf), 'f76558f5baa3642682e6e9c4f3ea8670c899232eaa421789a92a64ac9b846c31',
   "no filter: migrate_ctf doc/sample/trace writes today's bytes") unless $ENV{MT_PRINT_DIGESTS};

# ---- migrate_schedstat ---------------------------------------------------------------

# Snapshots of /proc/schedstat version 16 (one domain; lb_gained in the
# order busy, idle, newly idle) and of the tasks: all zero before, after
# lb_gained BUSY IDLE NEWIDLE, alb_pushed ALB and per pid [nr_migrations,
# nr_wakeups_migrate].
sub snap {
	my ($busy, $idle, $newidle, $alb, %task) = @_;
	my $dom = sub { 'domain0 f ' . join(' ', map { "0 0 0 0 $_ 0 0 0" } @_[0 .. 2]) . " 0 0 $_[3] 0 0 0 0 0 0 0 0 0\n" };
	state $n = 0;
	return write_file('snap' . $n++, "# migrate_record schedstat 1\n# when before\nversion 16\ntimestamp 1\n" .
		$dom->(0, 0, 0, 0) . join('', map { "task $_ 0 0 t$_\n" } sort keys %task) .
		"# when after\nversion 16\ntimestamp 2\n" . $dom->($busy, $idle, $newidle, $alb) .
		join('', map { "task $_ @{$task{$_}} t$_\n" } sort keys %task));
}

# The same moves recorded with both lb_busy_* reasons of the header:
# lb_gained busy (1.7 and 2.1 s: 2) and the wakeups (pid 100 at 1.1,
# 1.3 and 1.9 s: 3; pid 101 at 1.5 s: 1) can be compared; lb_gained
# idle and newly idle, alb_pushed and nr_migrations cannot.  No move is
# within 10 ms of the trace's first or last event.
my $busy = 'try_to_wake_up detach_tasks/lb_busy_load detach_tasks/lb_busy_util';
(my $bt = $hdr . $events) =~ s/^# filter .*$/# filter $busy/m;
$bt = write_file('busy', $bt);
my $sn = snap(2, 3, 0, 1, 100 => [5, 3], 101 => [2, 1]);
($rc, $out, $err) = run("$tool{schedstat} $sn $bt");
is($rc, 0, 'migrate_schedstat: what the filter recorded agrees: exit 0') or diag("$out$err");
my @lines = map { join(' ', split) } split /\n/, $out;
is_deeply([grep { /^(lb_gained|alb_pushed|\d+ t)/ } @lines],
	  ['lb_gained busy 2 2 ok', 'lb_gained idle 3 - filter', 'lb_gained newidle 0 - filter', 'alb_pushed 1 - filter',
	   '100 t100 5 - filter 3 3 ok', '101 t101 2 - filter 1 1 ok'],
	  "migrate_schedstat: the counters the filter recorded compared, the others '-' and 'filter'");
is($lines[1], 'filter: only ' . join(', ', split ' ', $busy) . ' were recorded; the rest is absent, not zero',
   'migrate_schedstat: says what the filter recorded');
is($lines[-1], 'every count compared agrees; the filter left out moves of those marked -',
   'migrate_schedstat: ... and that it compared only those');
($rc, $out) = run("$tool{schedstat} " . snap(2, 3, 0, 1, 100 => [5, 4], 101 => [2, 1]) . " $bt");
ok($rc == 1 && $out =~ /^100\s+t100\s+5\s+-\s+filter\s+4\s+3\s+DIFF$/m,
   'migrate_schedstat: a wakeup more in the kernel is still flagged: exit 1') or diag($out);
($rc, $out) = run("$tool{schedstat} $sn $ft");
ok($rc == 0 && $out =~ /^lb_gained busy\s+2\s+-\s+filter$/m,
   'migrate_schedstat: lb_busy_util left out: lb_gained busy is not compared') or diag($out);
# lb_gained idle counts detach_one_task's moves too: lb_idle_task alone
# is not enough, with detach_one_task it is compared (none: 0 against 3).
for my $w (['', '3\\s+-\\s+filter'], [' detach_one_task', '3\\s+0\\s+DIFF']) {
	(my $it = $hdr . $events) =~ s/^# filter .*$/# filter try_to_wake_up detach_tasks\/lb_busy_load detach_tasks\/lb_idle_task$w->[0]/m;
	($rc, $out) = run("$tool{schedstat} $sn " . write_file('idle', $it));
	like($out, qr/^lb_gained idle\s+$w->[1]$/m, "migrate_schedstat: lb_idle_task$w->[0] recorded: lb_gained idle " .
	     ($w->[0] ? 'compared' : 'not compared'));
}
($rc, $out) = run("$tool{schedstat} $sn $nt");
ok($rc == 0 && $out =~ /^tasks alive at both snapshots: 2, not compared: the filter left out moves of both counters$/m &&
   $out =~ /^no count compared: the filter left out moves of each\n\z/m && $out !~ /\s(ok|DIFF|edge)$/m,
   'migrate_schedstat: filter 0: nothing compared, exit 0') or diag($out);
($rc, $out) = run("$tool{schedstat} $sn $pt");
ok($rc == 1 && $out =~ /^lb_gained idle\s+3\s+0\s+DIFF$/m && $out !~ /filter/,
   'migrate_schedstat: the same moves without the filter line: the counts it lacks are flagged') or diag($out);

done_testing();
