#!/usr/bin/perl
# scripts/migrate_exporter on hostile and edge input made here, each
# answer counted by hand: a reason named with < > " & \ is written as an
# escaped label value that promtool accepts and that reads back as the
# name; a stat without nr_cpus; _created with its microseconds
# zero-padded; the trace's losses from the header's dropped and
# overwritten and from the body's lost lines; a period that repeats the
# previous one's time refused, the previous file and state kept.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir write_file run slurp);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $exp = "$top/scripts/migrate_exporter";
my $NS = 'migrate_trace_lite';
unless (`command -v promtool 2>/dev/null`) {
	print "1..1\nnot ok 1 - promtool is not installed (harness/deps.sh installs it)\n";
	exit(1);
}

# ---- a reason with < > " & \, no nr_cpus, a wall clock of 5000 us ------------------
# Totals: try_to_wake_up 5 (none 1, the odd reason 4), detach_tasks 1
# (no reason fields: reason none), migrate 6.
my $odd = 'a<b>"c&d\\e';
my $stat = "# version 1.2.0\n# period_msec 100\n# gettimeofday 1700000000 5000\n# ts_field 1\n" .
	"# field 2 try_to_wake_up\n# field 3 detach_tasks\n# field 4 migrate\n" .
	"# field 5 try_to_wake_up/none\n# field 6 try_to_wake_up/$odd\n" .
	"0.000 3 1 4 1 2\n0.100 2 0 2 0 2\n";
my $sf = write_file('odd.stat', $stat);
my ($rc, $out, $err) = run("$exp --stat $sf -o -");
is("$rc $err", '0 ', 'a stat without nr_cpus, with an odd reason name: exit 0, nothing on stderr');
my @mig = grep { /^${NS}_migrations_total\{/ } split /\n/, $out;
is_deeply(\@mig, ["${NS}_migrations_total{cause=\"detach_tasks\",reason=\"none\"} 1",
		  "${NS}_migrations_total{cause=\"try_to_wake_up\",reason=\"a<b>\\\"c&d\\\\e\"} 4",
		  "${NS}_migrations_total{cause=\"try_to_wake_up\",reason=\"none\"} 1"],
	  'label values escaped: \\" for ", \\\\ for \\; < > & as they are');
like($out, qr/^${NS}_migrations_created\{cause="detach_tasks",reason="none"\} 1700000000\.005000$/m,
     '_created: 5000 us written as .005000, zero-padded');
my $prom = write_file('odd.prom', $out);
my $lint = `promtool check metrics <$prom 2>&1`;
is("$? $lint", '0 ', 'promtool check metrics accepts it');

# The label value read back by the text format's rules is the name.
my ($val) = $out =~ /^${NS}_migrations_total\{cause="try_to_wake_up",reason="((?:[^"\\]|\\.)*)"\} 4$/m;
is(($val // '') =~ s/\\(.)/$1 eq 'n' ? "\n" : $1/ger, $odd, 'the escaped value reads back as the reason\'s name');

# ---- the trace's losses ---------------------------------------------------------------
# --trace: trace_lost_total is dropped plus overwritten, or the sum of the
# body's lost lines if that is larger (kind 7 is 'lost').
my $thdr = "# version 1.2.0\n# cause 1 try_to_wake_up\n# loc 7 lost\n";
my $ev = "0x0000000000001000 0 0 1 5 1\n";
for my $c (['dropped 2 and overwritten 3', "# dropped 2\n# overwritten 3\n", '', 5],
	   ['overwritten 3 alone', "# dropped 0\n# overwritten 3\n", '', 3],
	   ['lost lines of 4 and 3, no header counts', '', "0x0000000000002000 1 . . 0 7 4\n" .
	    "0x0000000000003000 0 . . 0 7 3\n", 7],
	   ['dropped 2, overwritten 3 and lost lines of 4 and 3', "# dropped 2\n# overwritten 3\n",
	    "0x0000000000002000 1 . . 0 7 4\n0x0000000000003000 0 . . 0 7 3\n", 7]) {
	my ($name, $h, $body, $want) = @$c;
	my $tf = write_file('lost.trace', $thdr . $h . $ev . $body);
	($rc, $out, $err) = run("$exp --stat $sf --trace $tf -o -");
	ok($rc == 0 && $out =~ /^${NS}_trace_lost_total (\d+)$/m && $1 == $want,
	   "$name: trace_lost_total $want") or diag("exit $rc: $err" . join("\n", grep { /lost/ } split /\n/, $out));
}

# ---- a period repeating the previous one's time ------------------------------------------
my $prom_file = tmpdir() . '/m.prom';
($rc, $out, $err) = run("$exp --stat $sf -o $prom_file");
is("$rc $err", '0 ', 'a good stat written to a file');
my ($before, $state) = (slurp($prom_file), slurp("$prom_file.state"));
my $rep = write_file('rep.stat', $stat . "0.100 1 0 1 1 0\n");
($rc, $out, $err) = run("$exp --stat $rep -o $prom_file");
is("$rc $err", "2 migrate_exporter: $rep:12: periods out of order\n",
   'a row at 0.100 after the row at 0.100: refused, one line');
ok(slurp($prom_file) eq $before && slurp("$prom_file.state") eq $state, 'the previous file and state are kept');
done_testing();
