#!/usr/bin/perl
# scripts/migrate_report on edge and hostile input, without a browser
# (fast enough for make mutants): the same input gives the same bytes
# whatever perl's hash order (counts that tie are sorted by name); names
# with < > " & \ come out escaped in the HTML and the SVG, never raw; a
# format 1.0 trace without '# nr_cpus' takes its CPU count from the
# records (no warning, a timeline lane per CPU, "CPU 3 at the top"); a
# trace that lost records in its body (streamed, 'lost' lines) says so;
# the buffers fact is the header's lines as the shared reader reads them
# (fields apart by any white space), its mode by what the counts of
# '# dropped' and '# overwritten' say happened, the '# overwrite' flag
# as it was when read, a bad value refused in one line, and TRACE -
# refused in one line (it is read twice).
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $report = "$top/scripts/migrate_report";
my $t0 = 5_000_000_000;
sub ts { sprintf('0x%016x', $t0 + $_[0]) }

# A format 1.2 header of CAUSES ([name, reasons...]) on 4 CPUs, its
# numbers: (text, cause number of each name, reason number of each).
sub header {
	my (%a) = @_;
	my ($k, $r, %cn, %rn) = (0, 0);
	my $h = "# version $a{version}\n" . ($a{nr_cpus} ? "# nr_cpus $a{nr_cpus}\n" : '') .
		"# ts_field 1\n# dropped 0\n";
	for my $c (@{$a{causes}}) {
		$cn{$c->[0]} = ++$k;
		$h .= "# cause $k $c->[0]\n";
	}
	$h .= '# loc ' . ++$k . " $_\n" for qw(copy_process set_task_comm task_list mark lost);
	for my $c (@{$a{causes}}) {
		for (@{$c}[1 .. $#$c]) {
			$rn{$_} = ++$r;
			$h .= "# reason $r $_\n";
		}
	}
	return ($h, \%cn, \%rn, $k);
}

# ---- the same bytes, whatever the hash order -------------------------------------

# Every count ties: two causes of 6 moves each, their reasons 3 and 3,
# the CPU pairs 0->1, 1->0, 2->3, 3->2 three times each, six tasks of two
# moves each, two ping-pong pairs of causes of the same count.
{
	my ($h, $cn, $rn, $k) = header(version => '1.2.0', nr_cpus => 4,
					causes => [[qw(beta_cause rb1 rb2)], [qw(alpha_cause ra1 ra2)]]);
	$h .= "# topology $_ $_ " . int($_ / 2) . " 0\n" for 0 .. 3;
	my $b = ts(0) . " 0 . . . start_sched_clock 1795238516 500000\n" .
		ts(0) . " 1 . . . start_sched_clock 1795238516 500000\n";
	$b .= ts(0) . " 0 . . $_ " . ($k - 2) . " : task$_\n" for 100 .. 105;
	my @moves = ([0, 1, 'beta_cause', 'rb1'], [1, 0, 'alpha_cause', 'ra1'], [2, 3, 'beta_cause', 'rb2'],
		     [3, 2, 'alpha_cause', 'ra2']);
	my $t = 0;
	for my $i (0 .. 11) {
		my ($from, $to, $c, $r) = @{$moves[$i % 4]};
		$t += 1_000_000;
		$b .= sprintf("%s %d %d %d %d %d %d\n", ts($t), $to, $from, $to, 100 + int($i / 2), $cn->{$c}, $rn->{$r});
	}
	my $trace = write_file('ties.trace', $h . $b);
	my (%pages, @errs);
	for my $seed (0, 1, 2, 3, 7, 42, 1234) {
		my ($rc, $out, $err) = run("PERL_HASH_SEED=$seed PERL_PERTURB_KEYS=2 $report -o - $trace");
		push @errs, "seed $seed: exit $rc $err" if $rc || $err ne '';
		$pages{$out} = 1;
	}
	is_deeply(\@errs, [], 'counts that tie: the report runs under seven hash seeds');
	is(scalar(keys %pages), 1, 'counts that tie: the same bytes under every hash seed');
	my ($page) = keys %pages;
	my ($causes) = $page =~ /<section id="causes">(.*?)<\/section>/s;
	like($causes // '', qr/alpha_cause<.*beta_cause</s, 'a tie of causes is broken by name');
	like($page, qr/top cause<\/div><div class="v word">alpha_<wbr>cause</, 'the top cause of a tie: the first by name');
	like($page, qr/Busiest: CPU 0 to CPU 1, 3 moves/, 'the busiest CPU pair of a tie: the first by name');
}

# ---- names with < > " & \ ------------------------------------------------------------

{
	my $cause = q{c<b>"&\\x};
	my $reason = q{r"<i>&amp;\\};
	my $comm = q{<script>alert("x&y")</script> \\ 'q'};
	my ($h, $cn, $rn, $k) = header(version => '1.2.0', nr_cpus => 2,
					causes => [[$cause, $reason], ['try_to_wake_up', 'wake_affine']]);
	my $b = ts(0) . " 0 . . 7 " . ($k - 3) . " : $comm\n";
	for my $i (1 .. 10) {
		my ($from, $to) = ($i % 2, 1 - $i % 2);
		my ($c, $r) = $i % 3 ? ($cause, $reason) : ('try_to_wake_up', 'wake_affine');
		$b .= sprintf("%s %d %d %d 7 %d %d\n", ts($i * 1e8), $to, $from, $to, $cn->{$c}, $rn->{$r});
	}
	my $trace = write_file(q{we<ird>"&.trace}, $h . $b);
	my $stat = write_file('hostile.stat', "# version 1.2.0\n# period_msec 100\n# ts_field 1\n# nr_cpus 2\n" .
			      "# dropped 0\n# field 2 $cause\n# field 3 try_to_wake_up\n# field 4 migrate\n" .
			      join('', map { sprintf("0.%d00 %d %d %d\n", $_, 1, $_ % 2, 1 + $_ % 2) } 0 .. 9));
	my ($rc, $page, $err) = run(qq{$report --title '<T>"&' --kernel 'k<"&>' -o - '$trace' $stat});
	ok($rc == 0 && $err eq '', 'hostile names: the report is written, no warning') or diag($err);
	my %raw = (cause => $cause, reason => $reason, comm => $comm, title => '<T>"&', kernel => 'k<"&>',
		   file => 'we<ird>"&');
	for my $what (sort keys %raw) {
		my $esc = $raw{$what} =~ s/&/&amp;/gr =~ s/</&lt;/gr =~ s/>/&gt;/gr =~ s/"/&quot;/gr;
		my $n = () = $page =~ /\Q$esc\E/g;
		ok(index($page, $raw{$what}) < 0 && $n >= 1, "the $what '$raw{$what}' is never raw, escaped $n times")
			or diag("raw at " . index($page, $raw{$what}));
	}
	# Every '<' opens a tag of the page or of its SVG; every '&' an entity.
	my %tags = map { $_ => 1 } qw(!DOCTYPE html head meta title style body main h1 h2 p section div span
				      dl dt dd table thead tbody tr th td b wbr svg rect line text polygon
				      polyline circle g);
	my @bad = grep { !$tags{$_} } $page =~ /<\/?([!\w]+)/g;
	is_deeply(\@bad, [], 'every tag is one the report writes');
	my @amp = $page =~ /(&(?!(?:amp|lt|gt|quot|middot|micro);)\S{0,8})/g;
	is_deeply(\@amp, [], "every '&' starts an entity");
	my @attr = $page =~ /(\s[\w-]+="[^"]*"[^\s>\/])/g;
	is_deeply(\@attr, [], 'every attribute value ends where an attribute may');
}

# ---- format 1.0: no '# nr_cpus' ------------------------------------------------------------

{
	my ($h, $cn) = header(version => '1.0.0', causes => [['try_to_wake_up'], ['detach_tasks']]);
	# CPU 3 is only ever a destination; each task goes to CPUs 1, 2, 3.
	my $b = ts(0) . " 0 . . 10 5 : alpha\n";
	for my $i (1 .. 40) {
		my ($f, $t) = ($i % 3, $i % 3 + 1);
		$b .= sprintf("%s %d %d %d %d %d\n", ts($i * 1e8), $t, $f, $t, 10 + $i % 2, 1 + $i % 2);
	}
	my $trace = write_file('v10.trace', $h . $b);
	my ($rc, $page, $err) = run("$report -o - $trace");
	is($rc, 0, 'format 1.0 without nr_cpus: the report is written');
	is($err, '', 'format 1.0 without nr_cpus: no warning') or diag($err);
	like($page, qr/CPU 0 at the bottom, CPU 3 at the top/, 'the timeline\'s axis: CPU 3 at the top');
	my ($tl) = $page =~ /(<svg id="chart-timeline".*?<\/svg>)/s;
	# Lane L spans 10 + 46 L to 56 + 46 L; CPU C is drawn 40 - 34 C / 3
	# below its top: CPU 0 at the bottom, 3 at the top.
	my %cy = map { $_ => 1 } ($tl // '') =~ /<circle class="move" cx="[\d.]+" cy="([\d.]+)"/g;
	my %want = map { my $l = $_; map { sprintf('%.1f', 10 + 46 * $l + 40 - 34 * $_ / 3) => 1 } 1 .. 3 } 0, 1;
	is_deeply([sort keys %cy], [sort keys %want], 'its dots stand at the height of their CPU in each lane');
	my @ticks = ($tl // '') =~ /<text class="cpu"[^>]*>(\d+)</g;
	is("@ticks", '0 1 2 3 0 1 2 3', 'each lane has a tick for each of the 4 CPUs');
	# Without a stat: a move every 0.1 s, by turns of the two causes, in
	# intervals of 0.05 s: each cause 20 per second in its intervals.
	my ($rates) = $page =~ /(<svg id="chart-rates".*?<\/svg>)/s;
	my @y = ($rates // '') =~ /text-anchor="end" fill="#444">([\d.]+)</g;
	is($y[-1], 20, 'without a stat, the rate chart from the trace: 20 per second at the top') or diag("@y");
	like($page, qr/from the trace, 40 migrations counted in 80 intervals of 0\.05 s/,
	     'its note: 40 moves in 80 intervals of 0.05 s');
	like($page, qr/<div class="k">CPUs<\/div><div class="v">4<\/div>/, 'the facts: 4 CPUs, from the records');
	like($page, qr/<h2>Busiest tasks \(2 of 2 that moved\)<\/h2>/, 'the busiest tasks: 2 of the 2 that moved, not 8 of 2');
	my ($hm) = $page =~ /(<svg id="chart-heatmap".*?<\/svg>)/s;
	is(scalar(() = ($hm // '') =~ /<rect class="cell"/g), 16, 'the heatmap: 4 x 4 cells');
}

# ---- nothing moved, in 8 s ----------------------------------------------------------------

{
	my ($h, $cn, $rn, $k) = header(version => '1.2.0', nr_cpus => 2, causes => [['try_to_wake_up', 'wake_affine']]);
	my $trace = write_file('empty.trace', $h . ts(0) . " 0 . . 10 " . ($k - 3) . " : alpha\n" .
			       ts(8e9) . " 0 . . 1 " . ($k - 1) . " 0x00000002\n");
	my $stat = write_file('empty.stat', "# version 1.2.0\n# period_msec 100\n# ts_field 1\n# nr_cpus 2\n" .
			      "# dropped 0\n# field 2 try_to_wake_up\n# field 3 migrate\n" .
			      join('', map { sprintf("%d.%d00 0 0\n", $_ / 10, $_ % 10) } 0 .. 79));
	my ($rc, $page, $err) = run("$report -o - $trace $stat");
	ok($rc == 0 && $err eq '', 'an empty trace and stat of 8 s: the report is written') or diag($err);
	my ($rates) = $page =~ /(<svg id="chart-rates".*?<\/svg>)/s;
	my @x = ($rates // '') =~ /text-anchor="middle" fill="#444">([\d.]+)</g;
	is($x[-1], 8, 'the rate chart\'s time axis spans the stat, 8 s') or diag("@x");
	for my $id (qw(rates timeline)) {
		my ($svg) = $page =~ /(<svg id="chart-$id".*?<\/svg>)/s;
		like($svg // '', qr/>No migration</, "the $id chart says \"No migration\"");
	}
}

# ---- records lost in the body ------------------------------------------------------------------

{
	my ($h, $cn, $rn, $k) = header(version => '1.2.0', nr_cpus => 2, causes => [['try_to_wake_up', 'wake_affine']]);
	my $b = ts(0) . " 0 . . 10 " . ($k - 3) . " : alpha\n";
	for my $i (1 .. 6) {
		$b .= sprintf("%s %d %d %d 10 1 1\n", ts($i * 1e8), 1 - $i % 2, $i % 2, 1 - $i % 2);
		$b .= ts($i * 1e8 + 1) . " 1 . . 0 $k 3\n" if $i == 3;
		$b .= ts($i * 1e8 + 1) . " 0 . . 0 $k 1\n" if $i == 5;
	}
	my $trace = write_file('lost.trace', $h . $b);
	my ($rc, $page, $err) = run("$report -o - $trace");
	ok($rc == 0 && $err eq '', 'lost lines in the body: the report is written') or diag($err);
	like($page, qr/<div class="card warn"><div class="k">lost<\/div><div class="v">4<\/div>/,
	     'the facts: 4 lost, a warning card');
	like($page, qr/<dt>losses<\/dt><dd><b>4 events lost<\/b>/, 'the losses: 4 events lost');
}

# ---- the header's buffer lines, read by the shared reader -------------------------------------

# The page's buffers fact: its dd, or undef.
sub buffers_fact {
	my ($page) = @_;
	my ($dd) = $page =~ m@<dt>buffers</dt><dd>(.*?)</dd>@;
	return $dd;
}

# Two moves under HEADER's lines, the cause 'try_to_wake_up'.
sub buffers_trace {
	my ($name, $lines) = @_;
	my ($h, $cn, $rn, $k) = header(version => '1.2.0', nr_cpus => 2, causes => [['try_to_wake_up', 'wake_affine']]);
	$h =~ s/^# dropped 0\n//m if $lines =~ /^# dropped /m;
	return write_file($name, $h . $lines . ts(0) . " 0 . . 10 " . ($k - 3) . " : alpha\n" .
			  ts(1e8) . " 1 0 1 10 1 1\n" . ts(2e8) . " 0 1 0 10 1 1\n");
}

{
	my %case = (
		'no buffer lines' => ['', 'not stated'],
		'overwrite 0' => ["# overwrite 0\n# buffer_size_kb 1024\n", '1024 KiB per CPU, stop when full (overwrite 0)'],
		'overwrite 1' => ["# overwrite 1\n# buffer_size_kb 16\n", '16 KiB per CPU, flight recorder (overwrite 1)'],
		# The rules: fields separated by white space, a number as written.
		'tabs and spaces' => ["#\toverwrite  1\n#  buffer_size_kb\t0064\r\n",
				      '0064 KiB per CPU, flight recorder (overwrite 1)'],
	);
	for my $what (sort keys %case) {
		my ($lines, $want) = @{$case{$what}};
		my $trace = buffers_trace('buffers.trace', $lines);
		my ($rc, $page, $err) = run("$report -o - $trace");
		ok($rc == 0 && $err eq '', "the buffer lines, $what: the report is written") or diag($err);
		is(buffers_fact($page), $want, "the buffer lines, $what: the buffers fact");
	}
	# The mode by what the counts say happened; the flag, which may have
	# changed while the trace ran, as it was when it was read.  Where the
	# two agree, the words of before.
	my @modes = (
		[0, 0, 0, 'stop when full (overwrite 0)'],
		[0, 5, 0, 'stop when full (overwrite 0)'],
		[1, 0, 0, 'flight recorder (overwrite 1)'],
		[1, 0, 7, 'flight recorder (overwrite 1)'],
		[0, 0, 1, 'flight recorder (1 record overwritten); overwrite 0 when read'],
		[0, 0, 2, 'flight recorder (2 records overwritten); overwrite 0 when read'],
		[1, 3, 0, 'stopped when full (3 refused); overwrite 1 when read'],
		# mt_flight's switched trace: on, records recycled; off, full.
		[0, 1, 39110, 'flight recorder (39110 records overwritten) and stopped when full (1 refused); ' .
		 'overwrite 0 when read'],
		[1, 2, 9, 'flight recorder (9 records overwritten) and stopped when full (2 refused); overwrite 1 when read'],
	);
	for my $m (@modes) {
		my ($flag, $d, $o, $want) = @$m;
		my $trace = buffers_trace('mode.trace', "# overwrite $flag\n# buffer_size_kb 16\n# dropped $d\n# overwritten $o\n");
		my ($rc, $page, $err) = run("$report -o - $trace");
		is(buffers_fact($page), "16 KiB per CPU, $want", "overwrite $flag, dropped $d, overwritten $o: the buffers fact")
			or diag($err);
	}
	# Read by Format.pm's rules, as migrate_stats reads them: a bad value
	# is the one line every tool gives.
	my $trace = buffers_trace('bad-overwrite.trace', "# overwrite 2\n# buffer_size_kb 16\n");
	my ($rc, $page, $err) = run("$report -o - $trace");
	ok($rc == 2 && $err =~ /^migrate_report: \S+bad-overwrite\.trace:\d+: bad overwrite line\n\z/,
	   "'# overwrite 2': one line, status 2") or diag("$rc $err");
	# The trace is read twice (its moves for the charts): a file, not a pipe.
	$trace = buffers_trace('stdin.trace', "# overwrite 0\n# buffer_size_kb 16\n");
	($rc, $page, $err) = run("$report -o - - <$trace");
	is("$rc $err", "2 migrate_report: -: the trace must be a file, not standard input (it is read more than once)\n",
	   'TRACE - (standard input): one line, status 2');
}

done_testing();
