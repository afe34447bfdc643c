#!/usr/bin/perl
# Trace format 1.2 in migrate_stats, on a generated trace whose answers
# this test keeps on the side: reasons (filters, the cause/reason table,
# --period_reason, the --migrate column), loss accounting (one warning
# line, the --stats line), saved_comm, unknown event kinds; a reader that
# knows only the 6 fields of 1.0 (awk, per formats-1.0.md) counts the
# same migrations; a 1.1 trace still reads as before.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $stats = "$top/scripts/migrate_stats";
my $extract = "$top/scripts/migrate_extract";
my $dir = tmpdir();

my @causes = qw(try_to_wake_up detach_tasks migration_cpu_stop);
my @reasons = qw(none wake_affine idle_sibling affinity balance_idle);	# 0 = none
my $hdr = "# version 1.2.0\n# nr_cpus 4\n# ts_field 1\n# overwrite 1\n# buffer_size_kb 64\n" .
	"# dropped 0\n# overwritten 5\n" . join('', map { "# cpu_lost $_ 0 " . ($_ == 2 ? 5 : 0) . "\n" } 0 .. 3) .
	"# buffer_used 4096\n" .
	join('', map { "# cause " . ($_ + 1) . " $causes[$_]\n" } 0 .. $#causes) .
	"# loc 4 copy_process\n# loc 5 set_task_comm\n# loc 6 task_list\n# loc 7 mark\n" .
	"# loc 8 lost\n# loc 9 saved_comm\n# loc 10 some_future_kind\n" .
	join('', map { "# reason $_ $reasons[$_]\n" } 1 .. $#reasons) .
	join('', map { "# topology $_ " . ($_ & ~1) . " 0 0\n" } 0 .. 3) .
	"# a_future_tag 1 2 3\n";

# 3000 migrations over 3 s; reason 0 written either as a 7th field 0 or
# as a 1.0-style 6-field line.
srand(12);
my $ts = 1_000_000_000;
my (%n_cause, %n_pair, %n_creason, %n_reason, %period, @lines);
my $body = sprintf("0x%016x 0 . . 100 6 : worker\n0x%016x 0 . . 101 6 : helper\n", $ts, $ts);
for my $i (1 .. 3000) {
	$ts += 1_000_000;
	my ($from, $to) = (int(rand(4)), int(rand(3)));
	$to++ if $to >= $from;
	my ($k, $r, $pid) = (int(rand(3)), int(rand(5)), 100 + int(rand(3)));
	my $f7 = $r ? " $r" : (rand() < 0.5 ? ' 0' : '');
	$body .= sprintf("0x%016x %d %d %d %d %d%s\n", $ts, $to, $from, $to, $pid, $k + 1, $f7);
	$n_cause{$causes[$k]}++;
	$n_creason{"$causes[$k]/$reasons[$r]"}++;
	$n_reason{$reasons[$r]}++;
	$period{int(($ts - 1e9) / 1e9)}{"$causes[$k]/$reasons[$r]"}++;
	push @lines, [$ts, $to, $from, $to, $pid, $causes[$k], $reasons[$r]];
	if ($i == 1000 || $i == 2000) {		# two gaps: 2 then 3 records
		$body .= sprintf("0x%016x 2 . . 0 8 %d\n", $ts, $i == 1000 ? 2 : 3);
	}
	if ($i == 1500) {
		$body .= sprintf("0x%016x 1 . . 102 9 : remembered\n", $ts);
		$body .= sprintf("0x%016x 1 . . 0 10 whatever comes later 1 2 3\n", $ts);
	}
}
my $trace = write_file('t12', $hdr . $body);

my ($rc, $out, $err) = run("$stats --stats $trace");
is($rc, 0, '--stats of a 1.2 trace that lost events exits 0');
is($err, "migrate_stats: warning: the trace lost 5 events (dropped 0, overwritten 5; 2 gaps)\n",
   'one warning line on stderr');
like($out, qr/^lost 5 dropped 0 overwritten 5 gaps 2$/m, '--stats reports the loss');
for my $c (@causes) {
	like($out, qr/^\Q$c\E\s+$n_cause{$c}\s/m, "--stats: $c $n_cause{$c}");
}
my @rows = $out =~ m@^(\w+/\w+)\s+(\d+)\s+[\d.]+$@mg;
my %got = @rows;
is_deeply(\%got, \%n_creason, '--stats: the cause/reason table, pair by pair');
my @order = map { $rows[2 * $_] } 0 .. $#rows / 2;
my %rank = map { my $c = $_; map { ("$causes[$c]/$reasons[$_]" => $c * 10 + $_) } 0 .. 4 } 0 .. 2;
is_deeply(\@order, [sort { $rank{$a} <=> $rank{$b} } keys %n_creason], '... in cause then reason order');

sub total {
	my ($args) = @_;
	my ($rc, $out, $err) = run("$stats --stats $args $trace");
	return $rc ? "exit $rc: $err" : ($out =~ /^total\s+(\d+)\s/m)[0];
}
is(total('--reason wake_affine'), $n_reason{wake_affine}, '--reason NAME');
is(total('--reason none'), $n_reason{none}, '--reason none: reason 0, with or without the 7th field');
is(total('--reason detach_tasks/affinity'), $n_creason{'detach_tasks/affinity'}, '--reason CAUSE/REASON');
is(total('--reason detach_tasks/none'), $n_creason{'detach_tasks/none'}, '--reason CAUSE/none');
is(total('--reason_exclude affinity --reason_exclude none'), 3000 - $n_reason{affinity} - $n_reason{none},
   '--reason_exclude repeats');
is(total('--reason idle_sibling --cause migration_cpu_stop'), $n_creason{'migration_cpu_stop/idle_sibling'},
   '--reason and --cause are ANDed');
for my $b (['--reason nosuch', qr/unknown reason 'nosuch'/], ['--reason nosuch/affinity', qr/unknown cause 'nosuch'/],
	   ['--reason affinity --reason_exclude affinity', qr/contradict/]) {
	($rc, $out, $err) = run("$stats --stats $b->[0] $trace");
	ok($rc == 2 && $err =~ $b->[1] && ($err =~ tr/\n//) == 1, "refused with one line: $b->[0]") or diag($err);
}

# --period_reason: one field per cause and reason, after the 1.0 groups.
($rc, $out) = run("$stats --period 1000 --period_all --period_reason $trace");
my @names = $out =~ /^# field \d+ (.*)$/mg;
is_deeply(\@names, ['migrate', map { my $c = $_; map { "$c/$_" } @reasons } @causes],
	  '--period_reason fields: CAUSE/REASON for every cause, none first, after migrate');
my @data = grep { !/^#/ } split /\n/, $out;
my @want = map { my $p = $_; my $all = 0; $all += $_ for values %{$period{$p}};
	join(' ', sprintf('%d.000', $p), sprintf('%.2f', $all),
	map { my $c = $_; map { sprintf('%.2f', $period{$p}{"$c/$_"} // 0) } @reasons } @causes) } 0 .. 2;
is_deeply(\@data, \@want, '--period_reason values, period by period, field by field');
my $series = write_file('series', $out);
($rc, $out) = run("$extract --field_num detach_tasks/affinity $series");
is($out, (2 + 5 + 3 + 1) . "\n", 'migrate_extract finds a CAUSE/REASON field by name');

# --migrate: the reason as the last column; saved_comm names its pid.
($rc, $out) = run("$stats --migrate --pid 102 --ts_abs $trace");
is($out, join('', map { sprintf("0x%016x %d %d %d %d %s %s %s\n", $_->[0], @$_[1 .. 4],
	$_->[0] > 1e9 + 1500e6 ? 'remembered' : '?', @$_[5, 6]) } grep { $_->[4] == 102 } @lines),
   '--migrate: REASON last (none for 0); saved_comm names the pid from then on');
($rc, $out) = run("$stats --ps $trace");
like($out, qr/^\S+ 1 102 saved_comm remembered$/m, '--ps lists saved_comm');
unlike($out, qr/whatever/, 'an unknown event kind is skipped');

# A reader that knows only the 6 fields of format 1.0: cause numbers of
# the lines whose third field is not '.'.
my %awk = map { split ' ' } `awk '!/^#/ && NF >= 6 && \$3 != "." { n[\$6]++ } END { for (k in n) print k, n[k] }' $trace`;
is_deeply({map { ($causes[$_ - 1] => $awk{$_}) } keys %awk}, \%n_cause,
	  'a 6-field 1.0 reader (awk) counts the same migrations per cause');

# A 1.1 trace: no reason column, --period_reason gives CAUSE/none.
(my $t11 = $hdr . $body) =~ s/^# version 1\.2\.0/# version 1.1.0/m;
$t11 =~ s/^# (reason|topology|overwritten|cpu_lost|overwrite) .*\n//mg;
$t11 =~ s/^(0x\S+ \d+ \d+ \d+ \d+ \d+) \d+$/$1/mg;
$t11 =~ s/^\S+ \d+ \. \. \d+ (8|9|10) .*\n//mg;
my $tr11 = write_file('t11', $t11);
($rc, $out, $err) = run("$stats --migrate $tr11");
ok($rc == 0 && $err eq '' && $out =~ /\A(\S+ \d+ \d+ \d+ \d+ \S+ \w+\n){3000}\z/, '1.1 trace: --migrate without a reason column, no warning');
($rc, $out) = run("$stats --period 1000 --period_cause --period_reason $tr11");
is_deeply([$out =~ /^# field \d+ (.*)$/mg], [@causes, map { "$_/none" } @causes], '1.1 trace: --period_reason is CAUSE/none');
done_testing();
