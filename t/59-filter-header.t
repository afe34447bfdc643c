#!/usr/bin/perl
# The kernel's '# filter' header line (issue 34, item 5) in the tools,
# without a browser: on the shipped sample, which has no filter line,
# every output of migrate_stats and migrate_report is the one before the
# line existed (digests below); on the sample filtered the way the
# kernel would have recorded it, migrate_stats --stats says what was
# recorded and marks each cause the filter left out '-', not 0, its
# series carry the line, migrate_report shows it and marks the same
# causes; MigrateTrace::Format's selected() answers for each cause and
# reason; a bad filter (an unknown cause or reason, 0 beside a word, no
# word, two lines) is one line on stderr and status 2 in every tool that
# reads a trace; a later file with another filter is refused.
#
# The digests are of the outputs on doc/sample/trace as migrate_stats
# and migrate_report 1.2.0 wrote them before the filter.  A change of
# those outputs on purpose (or a new doc/sample) needs new ones:
# MT_PRINT_DIGESTS=1 prints them.
use strict;
use warnings;
use Test::More;
use Digest::SHA qw(sha256_hex);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file slurp);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
unshift(@INC, "$top/scripts");
require MigrateTrace::Format;
my $dir = tmpdir();
my ($stats, $report) = map { "scripts/migrate_$_" } qw(stats report);

# CMD run from the top (so that the report names the files as the
# digests saw them): (exit code, standard output, error output).
sub at_top {
	my ($cmd) = @_;
	return run("cd '$top' && $cmd");
}

# ---- no filter line: today's bytes ----------------------------------------------------

my %digest = (
	"scripts/migrate_stats --stats" => '7b49bbda4272471b5bc38f39497f5542c3f94c3197915545ecce7ca3ef71ddf0',
	"scripts/migrate_stats --summary_pid" => '061b645e1714c8726e3feecc534b5c4594ae99bd412988ff1e6ed085003e7900',
	"scripts/migrate_stats --migrate" => 'bacbc997e633e136380201084391621e16a2e2230fe60bf2d69fa32c7f6398dc',
	"scripts/migrate_stats --topology" => '12440f5979d7291ed72682f2e8361592d99870104604dd63c39c0962d5d3c7e4',
	"scripts/migrate_stats --pingpong 500" => '0caeb68382725bea9b829f9fd40a0281e72c032b2cb6bb3410aecff9ff72a5d8',
	"scripts/migrate_stats --period 100 --period_cause --period_reason" => '384e1ce0cab7bdc89dcdc4a974e3e06f18b4f0e6bef3283775222b212e5aa634',
	"scripts/migrate_report -o - doc/sample/trace doc/sample/stat" => 'c775c17ce4a597ee2181c3f970da7d1ac17cadfb83cc81795c67c29fc7cdcd56',
	"scripts/migrate_report -o - doc/sample/trace" => '187757a6bd2fe8c3d2abfa6d5793b46440fa9a5eaab0e7179b10303ef60b059f',
);
my @cmds = ("$stats --stats", "$stats --summary_pid", "$stats --migrate", "$stats --topology",
	    "$stats --pingpong 500", "$stats --period 100 --period_cause --period_reason",
	    "$report -o - doc/sample/trace doc/sample/stat", "$report -o - doc/sample/trace");
for my $cmd (@cmds) {
	my $full = $cmd =~ /doc\/sample/ ? $cmd : "$cmd doc/sample/trace";
	my ($rc, $out, $err) = at_top($full);
	if ($ENV{MT_PRINT_DIGESTS}) {
		diag("\t\"$cmd\" => '" . sha256_hex($out) . "',");
		next;
	}
	ok($rc == 0 && $err eq '', "no filter: $cmd exits 0 and says nothing on stderr") or diag($err);
	is(sha256_hex($out), $digest{$cmd}, "no filter: $cmd writes today's bytes");
}

# ---- the sample as the kernel would have recorded it with a filter ------------------

my $sample = slurp("$top/doc/sample/trace");
my ($hdr, $events) = $sample =~ /\A((?:#[^\n]*\n)+)(.*)\z/s or die "doc/sample/trace: no header\n";
my %cnum = $hdr =~ /^# cause (\d+) (\S+)$/mg;
%cnum = reverse %cnum;
my %rname = $hdr =~ /^# reason (\d+) (\S+)$/mg;
my @causes = map { $_->[1] } sort { $a->[0] <=> $b->[0] } map { [$cnum{$_}, $_] } keys %cnum;
my $words = 'try_to_wake_up detach_tasks/lb_busy_load';

# The sample with the filter line FILTER before the causes, where the
# kernel writes it (or, with LATE, after the reasons), and only the moves
# SEL(cause, reason) selects: what the kernel writes.  Counts per cause
# kept in %$want.
sub filtered {
	my ($filter, $sel, $want, $late) = @_;
	my $h = $hdr;
	if ($late) {
		$h =~ s/^(# reason \d+ \S+\n)(?!# reason)/$1# filter $filter\n/m;
	} else {
		$h =~ s/^(# cause 1 )/# filter $filter\n$1/m;
	}
	my $body = '';
	for (split /^/, $events) {
		my @w = split;
		if (@w >= 6 && $w[2] ne '.') {
			my ($c, $r) = ((grep { $cnum{$_} == $w[5] } keys %cnum)[0], $w[6] ? $rname{$w[6]} : 'none');
			next unless $sel->($c, $r);
			$want->{$c}++;
		}
		$body .= $_;
	}
	return $h . $body;
}

my %want;
my $sel = sub { $_[0] eq 'try_to_wake_up' || "$_[0]/$_[1]" eq 'detach_tasks/lb_busy_load' };
my $ft = write_file('filtered', filtered($words, $sel, \%want));
ok($want{try_to_wake_up} && $want{detach_tasks} && keys(%want) == 2,
   "the filtered sample keeps $want{try_to_wake_up} try_to_wake_up and $want{detach_tasks} detach_tasks moves");
my $note = 'only try_to_wake_up, detach_tasks/lb_busy_load were recorded; the rest is absent, not zero';

my ($rc, $out, $err) = at_top("$stats --stats $ft");
is($rc, 0, 'filtered: --stats exits 0');
my @lines = split /\n/, $out;
my ($at) = grep { $lines[$_] =~ /^filter/ } 0 .. $#lines;
my ($table) = grep { $lines[$_] =~ /^cause\s+count/ } 0 .. $#lines;
is(defined $at ? $lines[$at] : undef, "filter: $note", '--stats says what the filter recorded');
ok(defined $at && $at < $table && (grep { /^filter/ } @lines) == 1, '... once, before the table per cause');
for my $c (@causes) {
	if ($want{$c}) {
		like($out, qr/^\Q$c\E\s+$want{$c}\s+[\d.]+$/m, "--stats counts the $want{$c} moves of $c");
	} else {
		like($out, qr/^\Q$c\E\s+-\s+-$/m, "--stats marks $c, which the filter left out, '-'");
	}
}
my ($cause_table) = $out =~ /^cause\s+count.*?\n(.*?)^total/ms;
unlike($cause_table // "0 0\n", qr/^\S+\s+0\s/m, "--stats' table per cause reads no row as a measured 0");
like($out, qr/^total\s+@{[$want{try_to_wake_up} + $want{detach_tasks}]}\s/m, '--stats totals the recorded moves');
like($out, qr{^detach_tasks/lb_busy_load\s+$want{detach_tasks}\s}m, '--stats counts detach_tasks/lb_busy_load');
is($err, "migrate_stats: note: the trace was filtered: $note\n", 'migrate_stats notes the filter on stderr, once');

my %w2;
my ($rc2, $out2) = at_top("$stats --stats " . write_file('late', filtered($words, $sel, \%w2, 1)));
is($out2, $out, 'a filter line after the causes and reasons reads the same');

# A cause recorded in part whose reasons did not happen is a measured 0.
my %w3;
my $f3 = write_file('part', filtered('try_to_wake_up detach_tasks/lb_busy_util',
				     sub { $_[0] eq 'try_to_wake_up' || "$_[0]/$_[1]" eq 'detach_tasks/lb_busy_util' }, \%w3));
(undef, $out) = at_top("$stats --stats $f3");
like($out, qr/^detach_tasks\s+0\s+0\.00$/m, 'a cause recorded in part, with no move, counts 0');
like($out, qr/^wake_up_new_task\s+-\s+-$/m, '... and a cause left out reads -');

# '# filter 0': nothing recorded, every cause '-'.
my $f0 = write_file('none', filtered('0', sub { 0 }, {}));
($rc, $out, $err) = at_top("$stats --stats $f0");
is($rc, 0, 'filter 0: --stats exits 0');
like($out, qr/^filter: nothing was recorded \(filter 0\): every move is absent, not zero$/m, 'filter 0: --stats says so');
is(scalar(() = $out =~ /^\S+\s+-\s+-$/mg), scalar(@causes), 'filter 0: every cause reads -');

# The series: the fields keep their numbers, the header carries the line.
($rc, $out, $err) = at_top("$stats --period 100 --period_cause --period_reason $ft");
is($rc, 0, 'filtered: --period_* exits 0');
like($out, qr/^# ts_field 1\n# filter \Q$words\E\n# field 2 try_to_wake_up\n/m,
     "--period_*'s header carries the trace's filter line before the fields");
my $ser = write_file('series', $out);
($rc, $out) = at_top("scripts/migrate_extract --field_num detach_tasks/lb_busy_load $ser");
ok($rc == 0 && $out =~ /^\d+$/, 'migrate_extract reads the filtered series');

# ---- the shared predicate ------------------------------------------------------------

{
	my %h;
	MigrateTrace::Format::new_header(\%h);
	MigrateTrace::Format::header_line(\%h, $_, sub { die "$_[0]\n" })
		for (split /^/, $hdr), "# filter try_to_wake_up detach_tasks/lb_busy_load migration_cpu_stop/none\n";
	MigrateTrace::Format::header_done(\%h, sub { die "$_[0]\n" });
	my $f = $h{rec_filter};
	my %ask = ('try_to_wake_up wake_affine' => 1, 'try_to_wake_up none' => 1,
		   'detach_tasks lb_busy_load' => 1, 'detach_tasks lb_busy_util' => 0, 'detach_tasks none' => 0,
		   'migration_cpu_stop none' => 1, 'migration_cpu_stop affinity' => 0,
		   'wake_up_new_task slow_path' => 0);
	is_deeply({ map { $_ => MigrateTrace::Format::selected($f, split) } keys %ask }, \%ask,
		  'selected() takes CAUSE, CAUSE/REASON and CAUSE/none');
	is_deeply([grep { MigrateTrace::Format::cause_recorded($f, $_) } @causes],
		  [qw(try_to_wake_up detach_tasks migration_cpu_stop)], 'cause_recorded(): whole or in part');
	ok(MigrateTrace::Format::selected(undef, 'wake_up_new_task', 'none'), 'without a filter every move is selected');
}

# ---- migrate_report ----------------------------------------------------------------

($rc, $out, $err) = at_top("$report -o - $ft doc/sample/stat");
ok($rc == 0 && $err eq '', 'filtered: migrate_report exits 0, silent') or diag($err);
like($out, qr{<div class="card warn"><div class="k">filter</div><div class="v word">filtered</div><div class="d">2 of 17 causes recorded, 1 in part</div>},
     'the report has a filter card');
like($out, qr{<dt>filter</dt><dd><b>\Q$note\E</b> \(the trace's <code># filter \Q$words\E</code> line\)},
     "the report's facts say what the filter recorded");
my ($causes) = $out =~ m{<section id="causes">(.*?)</section>}s;
for my $c (@causes) {
	my ($row) = ($causes // '') =~ m{<tr><td><span class="sw"[^>]*></span>\Q$c\E</td>(.*?)</tr>};
	if ($want{$c}) {
		like($row // '', qr{^<td>$want{$c}</td>}, "the report counts the $want{$c} moves of $c");
	} else {
		is($row, '<td>-</td><td>-</td><td>not recorded (filter)</td>', "the report marks $c, which the filter left out");
	}
}
like($causes // '', qr{<p class="note">The trace was filtered: \Q$note\E\.</p>}, 'the table per cause says so');
like($out, qr{<section id="rates">.*The stat counts every move: the trace's filter does not apply to it\.</p>}s,
     'the rate chart of the stat says that the stat is not filtered');

# ---- bad filters: one line, status 2, in every tool ---------------------------------

my %bad = ('an unknown cause' => ["# filter try_to_wake_up nosuch\n", qr/unknown cause 'nosuch'/],
	   'an unknown reason' => ["# filter detach_tasks/nosuch\n", qr/unknown reason 'nosuch' in detach_tasks\/nosuch/],
	   'an unknown cause of a pair' => ["# filter nosuch/affinity\n", qr/unknown cause 'nosuch'/],
	   '0 beside a word' => ["# filter 0 try_to_wake_up\n", qr/0 \(nothing\) stands alone/],
	   'no word' => ["# filter\n", qr/a '# filter' line without a word/],
	   'two lines' => ["# filter try_to_wake_up\n# filter detach_tasks\n", qr/a second '# filter' line/],
	   'a move it left out' => ['', qr/a move of detach_tasks\/lb_idle_task, which the trace's '# filter' left out/]);
# The filtered sample with a detach_tasks/lb_idle_task move (reason 33).
(my $left_out = slurp($ft)) =~ s/^(0x\S+ \d+ \d+ \d+ \d+ )1 \d+$/$1$cnum{detach_tasks} 33/m;
for my $what (sort keys %bad) {
	my ($line, $re) = @{$bad{$what}};
	(my $t = $hdr) =~ s/^(# cause 1 )/$line$1/m;
	my $f = write_file('bad', $line ? $t . $events : $left_out);
	for my $tool ("$stats --stats $f", "$report -o $dir/bad.html $f", "scripts/migrate_ctf $f $dir/ctf",
		      "scripts/migrate_top --replay --no-clear --count 1 $f") {
		my ($name) = $tool =~ m{scripts/(\S+)};
		($rc, $out, $err) = at_top($tool);
		ok($rc == 2 && $out eq '' && $err =~ /\A\Q$name\E: [^\n]*$re[^\n]*\n\z/,
		   "$what: $name exits 2 with one line") or diag("rc $rc: $err");
	}
	ok(!-e "$dir/bad.html", "$what: migrate_report writes no page");
}

# ---- other tools and several files -----------------------------------------------------

($rc, undef, $err) = at_top("scripts/migrate_ctf $ft $dir/ctf-ok");
ok($rc == 0 && -s "$dir/ctf-ok/metadata", 'migrate_ctf reads a filtered trace') or diag($err);
($rc, $out, $err) = at_top("scripts/migrate_top --replay --no-clear --count 1 $ft");
ok($rc == 0 && $out =~ /^try_to_wake_up\s/m, 'migrate_top reads a filtered trace') or diag($err);

my ($h1) = filtered($words, $sel, {}) =~ /\A((?:#[^\n]*\n)+)/;
my $later = write_file('later', $hdr . "0x7fffffffffffffff 0 . . 1 21 0x00000001\n");
($rc, $out, $err) = at_top("$stats --stats $ft $later");
ok($rc == 2 && $err =~ /\Amigrate_stats: \S+: its header contradicts that of \S+: the filter is not named here, '\Q$words\E' there\n\z/,
   'a later file whose header has no filter is refused') or diag($err);
$later = write_file('later2', $h1 . "0x7fffffffffffffff 0 . . 1 21 0x00000001\n");
($rc, $out, $err) = at_top("$stats --stats $ft $later");
is($rc, 0, 'a later file with the same filter is read') or diag($err);

done_testing();
