#!/usr/bin/perl
# scripts/migrate_exporter: promtool accepts what it writes; its totals per
# cause and reason equal those migrate_extract gives of the same stat; a
# real node_exporter serves the file and a real Prometheus, both started
# here on 127.0.0.1, scrapes it and answers the same totals, also after
# more periods are appended; the documented recording rule passes promtool
# and Prometheus evaluates it; a restart or a reset never takes a counter
# back; bad input leaves the previous file and state in place.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use IO::Socket::INET;
use HTTP::Tiny;
use JSON::PP qw(decode_json);
use Time::HiRes qw(time sleep);
use POSIX qw(WNOHANG);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(put slurp guest_file prom_samples);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $exp = "$top/scripts/migrate_exporter";
my $extract = "$top/scripts/migrate_extract";
my $rules = "$top/Documentation/trace/migrate_trace_lite.rules.yml";
my $dir = tempdir(CLEANUP => 1);
my $NS = 'migrate_trace_lite';

for my $cmd (qw(promtool prometheus prometheus-node-exporter)) {
	next if `command -v $cmd 2>/dev/null`;
	print "1..1\nnot ok 1 - $cmd is not installed (harness/deps.sh installs it)\n";
	exit(1);
}

# ---- a stat like the kernel's -------------------------------------------------

# Causes and their reasons (none first); a cause without reasons has no
# CAUSE/REASON fields, as in the kernel's stat.
my @causes = (['try_to_wake_up', qw(none wake_affine idle_core idle_cpu)],
	      ['wake_up_new_task', qw(none slow_path)], ['detach_tasks', qw(none lb_busy_load)],
	      ['migration_cpu_stop', qw(none affinity exec_balance)], ['push_rt_task']);
my $header = "# version 1.2.0\n# period_msec 100\n# gettimeofday 1795238516 787785\n" .
	"# ts_field 1\n# nr_cpus 4\n# dropped 0\n# sched_clock 0x00000000a1b2c3d4\n";
{
	my $n = 2;
	$header .= "# field " . $n++ . " $_->[0]\n" for @causes;
	$header .= "# field " . $n++ . " migrate\n";
	for my $c (@causes) {
		$header .= "# field " . $n++ . " $c->[0]/$_\n" for @{$c}[1 .. $#$c];
	}
}
srand(45);
# Rows FROM .. TO-1, each a period of 100 ms.
sub rows {
	my ($from, $to) = @_;
	my $t = '';
	for my $p ($from .. $to - 1) {
		my (@cause, @reason);
		for my $c (@causes) {
			my @r = map { int(rand(4)) ? int(rand(30)) : 0 } 1 .. (@$c > 1 ? $#$c : 1);
			my $sum = 0;
			$sum += $_ for @r;
			push @cause, $sum;
			push @reason, @r if @$c > 1;
		}
		my $all = 0;
		$all += $_ for @cause;
		$t .= sprintf("%d.%03d %s\n", int($p / 10), ($p % 10) * 100, join(' ', @cause, $all, @reason));
	}
	return $t;
}

# The totals of STAT per "cause reason", from migrate_extract: each
# field's rates times the period, summed; a cause's CAUSE/REASON fields,
# or the cause itself when it has none.
sub extract_totals {
	my ($stat) = @_;
	my $period = `$extract --period_msec $stat`;
	chomp $period;
	my %name;
	for (split /\n/, slurp($stat)) {
		$name{$1} = $2 if /^# field (\d+) (.+)$/;
	}
	my (%tot, %has_reasons);
	for my $n (sort { $a <=> $b } keys %name) {
		my $sum = 0;
		$sum += sprintf('%.0f', (split ' ')[1] * $period / 1000) for `$extract --extract $n $stat`;
		die "migrate_extract --extract $n failed" if $?;
		if ($name{$n} =~ m@^(\w+)/(\w+)$@) {
			$tot{"$1 $2"} = $sum;
			$has_reasons{$1} = 1;
		} elsif ($name{$n} ne 'migrate') {
			$tot{"$name{$n} none"} = $sum;
		}
	}
	# A cause with reasons counts in them, its own field is their sum.
	for my $c (keys %has_reasons) {
		delete $tot{"$c none"} unless grep { $name{$_} eq "$c/none" } keys %name;
	}
	return \%tot;
}

sub run {
	my ($args) = @_;
	my $out = `$exp $args 2>$dir/err`;
	return ($? >> 8, $out, slurp("$dir/err"));
}

# ---- the exposition, promtool, migrate_extract ------------------------------------

my $stat = "$dir/stat";
put($stat, $header . rows(0, 40));
my $want = extract_totals($stat);
my ($rc, $out, $err) = run("--stat $stat -o -");
is($rc, 0, 'the exporter reads a stat') or diag($err);
put("$dir/one.prom", $out);
my $lint = `promtool check metrics <$dir/one.prom 2>&1`;
ok($? == 0 && $lint eq '', 'promtool check metrics accepts the output, without a lint') or diag($lint);
is_deeply(prom_samples($out, "${NS}_migrations_total"), $want,
	  'migrations_total per cause and reason equals migrate_extract\'s totals');
is_deeply([sort { $a <=> $b } values %{prom_samples($out, "${NS}_migrations_created")}],
	  [(1795238516.787785) x keys %$want], '_created is the collection\'s start, for each series');
is(prom_samples($out, "${NS}_periods")->{''}, 40, 'periods: 40');
is(prom_samples($out, "${NS}_period_seconds")->{''}, 0.1, 'period_seconds: 0.1');

# The guest's real stat, which make check's guest keeps; run alone
# without it, one plain failure says so (MtTest::guest_file).
if (my $real = guest_file("$top/out/check/stat")) {
	($rc, $out, $err) = run("--stat $real -o -");
	put("$dir/real.prom", $out);
	$lint = `promtool check metrics <$dir/real.prom 2>&1`;
	ok($rc == 0 && $? == 0 && $lint eq '' &&
	   eq_hash(prom_samples($out, "${NS}_migrations_total"), extract_totals($real)),
	   'the guest\'s stat: promtool accepts it, the totals are migrate_extract\'s')
		or diag("$err$lint");
}

# ---- the documented recording rule -------------------------------------------------

my $rst = slurp("$top/Documentation/trace/migrate_trace_lite.rst");
my $rule_text = slurp($rules);
(my $indented = $rule_text) =~ s/^(?=.)/  /mg;
ok(index($rst, "::\n\n$indented") >= 0, 'the RST shows the rule file as it is');
my $check = `promtool check rules $rules 2>&1`;
ok($? == 0 && $check =~ /SUCCESS: \d+ rules found/, 'promtool check rules accepts it') or diag($check);

# ---- a real scrape ---------------------------------------------------------------------

sub free_port {
	my $s = IO::Socket::INET->new(Listen => 1, LocalAddr => '127.0.0.1', LocalPort => 0,
				      Proto => 'tcp', ReuseAddr => 1) or die "no free port: $!";
	my $p = $s->sockport;
	close($s);
	return $p;
}

my @pids;
sub start {
	my ($log, @cmd) = @_;
	my $pid = fork() // die "fork: $!";
	if (!$pid) {
		open(STDOUT, '>', $log) or die;
		open(STDERR, '>&', \*STDOUT) or die;
		open(STDIN, '<', '/dev/null') or die;
		exec(@cmd) or die "exec $cmd[0]: $!";
	}
	push @pids, $pid;
	return $pid;
}

sub stop_all {
	kill('TERM', @pids);
	my $until = time() + 10;
	for my $pid (@pids) {
		sleep(0.1) while waitpid($pid, WNOHANG) == 0 && time() < $until;
		kill('KILL', $pid) if waitpid($pid, WNOHANG) == 0;
	}
	@pids = ();
}
END { stop_all() if @pids; }
# Bounded: whatever hangs, the test ends within 3 minutes.
$SIG{ALRM} = sub { stop_all(); die "t/45: timed out\n"; };
alarm(180);

my $http = HTTP::Tiny->new(timeout => 5);
sub wait_for {
	my ($what, $secs, $fn) = @_;
	my $until = time() + $secs;
	while (time() < $until) {
		my $r = $fn->();
		return $r if $r;
		sleep(0.25);
	}
	return undef;
}

my $tf = "$dir/textfile";
mkdir($tf) or die;
my ($ne_port, $prom_port) = (free_port(), free_port());
start("$dir/node_exporter.log", 'prometheus-node-exporter',
      "--web.listen-address=127.0.0.1:$ne_port", '--collector.disable-defaults',
      '--collector.textfile', "--collector.textfile.directory=$tf");
put("$dir/prometheus.yml", <<"EOY");
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $rules
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$ne_port']
EOY
start("$dir/prometheus.log", 'prometheus', "--config.file=$dir/prometheus.yml",
      "--storage.tsdb.path=$dir/tsdb", "--web.listen-address=127.0.0.1:$prom_port",
      '--log.level=warn');
my $t0 = time();
my $up = wait_for('both', 40, sub {
	$http->get("http://127.0.0.1:$ne_port/metrics")->{success} &&
	$http->get("http://127.0.0.1:$prom_port/-/ready")->{success} });
ok($up, 'node_exporter and Prometheus answer on 127.0.0.1') or
	diag(slurp("$dir/node_exporter.log") . slurp("$dir/prometheus.log"));

# What Prometheus answers for QUERY: "label values" => value, labels
# job and instance left out.
sub query {
	my ($q) = @_;
	my $r = $http->get("http://127.0.0.1:$prom_port/api/v1/query?query=$q");
	return {} unless $r->{success};
	my $j = eval { decode_json($r->{content}) } or return {};
	my %v;
	for my $s (@{$j->{data}{result} // []}) {
		my %l = %{$s->{metric}};
		delete @l{qw(__name__ job instance)};
		$v{join(' ', map { $l{$_} } sort keys %l)} = $s->{value}[1] + 0;
	}
	return \%v;
}

my $prom = "$tf/$NS.prom";
sub scraped {
	my ($want) = @_;
	my $got;
	wait_for('scrape', 30, sub { $got = query("${NS}_migrations_total"); eq_hash($got, $want) });
	return $got;
}
($rc, undef, $err) = run("--stat $stat -o $prom");
is($rc, 0, 'the exporter writes the textfile') or diag($err);
is_deeply(scraped($want), $want, 'Prometheus scraped the totals of migrate_extract, per cause and reason');

put($stat, $header . rows(0, 40) . rows(40, 75));
my $want2 = extract_totals($stat);
ok(!eq_hash($want, $want2), 'the appended periods change the totals');
($rc, undef, $err) = run("--stat $stat -o $prom");
is_deeply(scraped($want2), $want2, 'after 35 more periods: Prometheus has the new totals');

my %cause_sum;
for (keys %$want2) {
	my ($c) = split;
	$cause_sum{$c} = 1;
}
my $rec = wait_for('rule', 30, sub {
	my $r = query("cause:${NS}_migrations:rate1m");
	keys %$r == keys %cause_sum ? $r : undef });
is_deeply([sort keys %{$rec // {}}], [sort keys %cause_sum],
	  'Prometheus evaluates the recording rule: one rate series per cause');
stop_all();
alarm(0);
my $secs = time() - $t0;
ok($secs < 90, sprintf('the scrape part took %.1f s', $secs));

# ---- restarts and resets --------------------------------------------------------------

my $state = "$prom.state";
my $before = prom_samples(slurp($prom), "${NS}_migrations_total");
# A new collection (another start), with fewer migrations so far.
(my $h2 = $header) =~ s/787785/900000/;
put($stat, $h2 . rows(0, 3));
my $new = extract_totals($stat);
($rc, undef, $err) = run("--stat $stat -o $prom");
my $after = prom_samples(slurp($prom), "${NS}_migrations_total");
is_deeply($after, { map { $_ => $before->{$_} + $new->{$_} } keys %$before },
	  'a new collection adds to the counters: old totals plus the new ones') or diag($err);
is(prom_samples(slurp($prom), "${NS}_restarts_total")->{''}, 1, 'restarts_total counts it');
my @created = values %{prom_samples(slurp($prom), "${NS}_migrations_created")};
ok(@created && !grep({ $_ != 1795238516.787785 } @created), '_created stays the first collection\'s start');

# A reset: the stat empty, migration_stat/enable 0.
put($stat, $h2);
put("$dir/enable", "0\n");
($rc, undef, $err) = run("--stat $stat --enable $dir/enable -o $prom");
my $text = slurp($prom);
ok($rc == 0 && eq_hash(prom_samples($text, "${NS}_migrations_total"), $after) &&
   prom_samples($text, "${NS}_collecting")->{''} == 0 && prom_samples($text, "${NS}_periods")->{''} == 0,
   'after a reset: collecting 0, periods 0, the counters keep their values') or diag($err);
ok(prom_samples($text, "${NS}_restarts_total")->{''} == 2, 'the reset counts as a restart');

# Nothing ever collected, no state: reported as not collecting, no zeros.
put("$dir/never", $header =~ s/1795238516 787785/0 000000/r);
($rc, $out, $err) = run("--stat $dir/never --enable $dir/enable -o -");
ok($rc == 0 && $out =~ /^${NS}_collecting 0$/m && $out !~ /_total\{/ && $out =~ /^${NS}_periods 0$/m,
   'a stat that is not collecting: collecting 0, and no counter of zeros') or diag("$err$out");
put("$dir/enable", "1\n");
($rc, $out) = run("--stat $dir/never --enable $dir/enable -o -");
ok($out =~ /^${NS}_collecting 1$/m && keys %{prom_samples($out, "${NS}_migrations_total")} == keys %$want,
   'a collection just started: collecting 1, every series at its true 0');

# ---- topology classes of a trace --------------------------------------------------------

# CPUs 0 and 1 are SMT siblings, 2 another core of their LLC, 3 on node 1.
my @topo = ([0, 0, 0], [0, 0, 0], [2, 0, 0], [3, 3, 1]);
my $tr = "# version 1.2.0\n# nr_cpus 4\n# ts_field 1\n# dropped 2\n# overwritten 3\n" .
	"# cause 1 try_to_wake_up\n# loc 2 copy_process\n# loc 3 set_task_comm\n# loc 4 task_list\n" .
	"# loc 5 mark\n# loc 6 lost\n" . join('', map { "# topology $_ @{$topo[$_]}\n" } 0 .. 3) .
	"0x0000000000001000 0 . . . start_sched_clock 1795238600 250000\n";
my %class;
my $on = 0;
for my $i (1 .. 200) {
	my $to = ($on + 1 + int(rand(3))) % 4;
	my ($f, $t) = @topo[$on, $to];
	$class{$f->[0] == $t->[0] ? 'core' : $f->[1] == $t->[1] ? 'llc' : $f->[2] == $t->[2] ? 'cross_llc' : 'cross_node'}++;
	$tr .= sprintf("0x%016x %d %d %d 77 1\n", 0x2000 + $i, $to, $on, $to);
	$on = $to;
}
put("$dir/topo.trace", $tr);
($rc, $out, $err) = run("--stat $stat --trace $dir/topo.trace -o -");
is_deeply(prom_samples($out, "${NS}_topology_migrations_total"),
	  { map { $_ => $class{$_} // 0 } qw(core llc cross_llc cross_node) },
	  '--trace: migrations per topology class, as counted here') or diag($err);
is(prom_samples($out, "${NS}_trace_lost_total")->{''}, 5, '--trace: the events it lost (2 dropped, 3 overwritten)');
put("$dir/flat.trace", $tr =~ s/^# topology .*\n//mgr);
($rc, $out, $err) = run("--stat $stat --trace $dir/flat.trace -o -");
ok($rc == 0 && $out !~ /topology_migrations/ && $out =~ /trace_lost_total 5/,
   '--trace without # topology lines: no classes, the losses all the same') or diag($err);

# ---- bad input ------------------------------------------------------------------------

put($stat, $header . rows(0, 5));
($rc) = run("--stat $stat -o $prom");
my ($good, $good_state, $ino) = (slurp($prom), slurp($state), (stat($prom))[1]);
($rc) = run("--stat $stat -o $prom");
isnt((stat($prom))[1], $ino, 'the file is replaced by a rename, not rewritten in place');
($good, $good_state) = (slurp($prom), slurp($state));
my @rows5 = split /\n/, rows(5, 6);
my @bad = (
	['a malformed row', $header . "0.000 1 2\n", qr/:\d+: want \d+ counts after the timestamp, got 2/],
	['a word for a count', $header . ($rows5[0] =~ s/ \d+$/ x/r) . "\n", qr/is not a count: 'x'/],
	['reasons that do not add up', $header . ($rows5[0] =~ s/^(\S+) (\d+)/"$1 " . ($2 + 1)/er) . "\n",
	 qr/the reasons of try_to_wake_up add up to \d+, not to its \d+/],
	['format 2.0', $header =~ s/1\.2\.0/2.0.0/r, qr/stat format 2\.0\.0 is not 1\.x/],
	['no period_msec', $header =~ s/# period_msec 100\n//r, qr/no '# period_msec' line/],
	['periods out of order', $header . rows(1, 2) . rows(0, 1), qr/periods out of order/],
);
for my $b (@bad) {
	my ($name, $in, $re) = @$b;
	put("$dir/bad", $in);
	($rc, $out, $err) = run("--stat $dir/bad -o $prom --state $state");
	ok($rc == 2 && $err =~ $re && ($err =~ tr/\n//) == 1 && slurp($prom) eq $good &&
	   slurp($state) eq $good_state, "refused with one line, file and state kept: $name")
		or diag("rc=$rc err=$err");
}
put("$dir/enable", "2\n");
($rc, $out, $err) = run("--stat $stat --enable $dir/enable -o $prom");
ok($rc == 2 && $err =~ /want 0 or 1, not '2'/ && slurp($prom) eq $good, 'a bad enable file: refused, file kept')
	or diag($err);
unlink("$dir/enable");	# else the 'enable' beside the stat
($rc, $out, $err) = run("--stat $dir/missing -o $prom");
ok($rc == 2 && $err =~ /missing: No such file/ && slurp($prom) eq $good, 'a missing stat: refused, file kept');
($rc, $out, $err) = run("--stat $stat --interval 0 -o $prom");
ok($rc == 2 && $err =~ /--interval wants seconds/, 'a bad --interval is refused');
opendir(my $dh, $tf) or die;
is_deeply([sort grep { !/^\./ } readdir($dh)], ["$NS.prom", "$NS.prom.state", "$NS.prom.state.lock"],
	  'no temporary file left in the textfile directory');

# ---- periodic -------------------------------------------------------------------------

my $t1 = time();
($rc, $out, $err) = run("--stat $stat --interval 0.2 --count 3 -o $dir/loop.prom");
my $dt = time() - $t1;
ok($rc == 0 && $dt >= 0.4 && $dt < 5 && -s "$dir/loop.prom", sprintf('--interval 0.2 --count 3 reads 3 times (%.1f s)', $dt))
	or diag($err);

# ==== the fleet's dashboard and alert rules ===================================================
#
# Documentation/trace/migrate_trace_lite.grafana.json and the alert rules
# of migrate_trace_lite.rules.yml, against a real Prometheus that scrapes
# the exporter's series (stat, trace with topology and losses, enable)
# through a real node_exporter: every query of the dashboard evaluates
# without error and returns data, with values that are what the inputs
# say; every rule evaluates without error; the loss alerts fire on
# losses, the not-collecting alert is pending once enable reads 0, the
# stalled and stale ones stay quiet while the stat grows.
{
	my $dash_file = "$top/Documentation/trace/migrate_trace_lite.grafana.json";
	my $dash = eval { decode_json(slurp($dash_file)) };
	ok($dash && @{$dash->{panels} // []}, 'the dashboard is JSON with panels') or diag($@);
	my @q;	# [panel title, query]
	for my $p (@{$dash->{panels} // []}) {
		push @q, map { [$p->{title}, $_->{expr}] } grep { $_->{expr} } @{$p->{targets} // []};
	}
	for my $v (@{$dash->{templating}{list} // []}) {
		push @q, ["variable $v->{name}", $1] if ($v->{definition} // '') =~ /^label_values\((\w+)/;
	}
	my %topics = map { $_ => 0 } qw(cause reason cross_llc lost collecting restarts);
	for (@q) {
		my $e = $_->[1];
		$topics{cause}++ if $e =~ /migrations_total/ && $e =~ /\bcause\b/;
		$topics{reason}++ if $e =~ /migrations_total/ && $e =~ /\breason\b/;
		$topics{cross_llc}++ if $e =~ /topology_migrations_total\{[^}]*cross_llc/;
		$topics{lost}++ if $e =~ /dropped_total|trace_lost_total/;
		$topics{collecting}++ if $e =~ /_collecting\b/;
		$topics{restarts}++ if $e =~ /restarts_total/;
	}
	ok(!grep({ !$topics{$_} } keys %topics), 'the dashboard shows rates per cause and reason, the cross-LLC ' .
	   'share, lost records, collecting and restarts: ' . join(', ', map { "$_ $topics{$_}" } sort keys %topics));
	my $rules_text = slurp($rules);
	my @alerts = $rules_text =~ /^\s*- alert: (\w+)/mg;
	ok((grep { /Dropped|Lost/ } @alerts) && (grep { /NotCollecting/ } @alerts),
	   "the rules have alerts on losses and on a stat not collecting: @alerts");

	# The inputs: the stat with 40 periods, then 75 and 7 dropped; the
	# topology trace with 5 events lost, then 9; enable 1, at the end 0.
	my $fstat = "$dir/fleet.stat";
	my $ftrace = "$dir/fleet.trace";
	my $fenable = "$dir/fleet.enable";
	my ($head, $body) = $tr =~ /\A(.*?^)(0x.*)\z/ms;
	put($fstat, $header . rows(0, 40));
	put($ftrace, $tr);
	put($fenable, "1\n");
	my $ftf = "$dir/fleet-textfile";
	mkdir($ftf) or die;
	my $fprom = "$ftf/$NS.prom";
	my $export = sub {
		my ($rc, undef, $err) = run("--stat $fstat --trace $ftrace --enable $fenable -o $fprom");
		return $rc == 0 || diag($err);
	};
	ok($export->(), 'the exporter writes the stat, the trace and enable');
	alarm(150);
	my ($ne, $pp) = (free_port(), free_port());
	start("$dir/fleet-ne.log", 'prometheus-node-exporter', "--web.listen-address=127.0.0.1:$ne",
	      '--collector.disable-defaults', '--collector.textfile', "--collector.textfile.directory=$ftf");
	put("$dir/fleet.yml", "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - $rules\n" .
	    "scrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ['127.0.0.1:$ne']\n");
	start("$dir/fleet-prom.log", 'prometheus', "--config.file=$dir/fleet.yml", "--storage.tsdb.path=$dir/fleet-tsdb",
	      "--web.listen-address=127.0.0.1:$pp", '--log.level=warn');
	# Prometheus's answer to the instant query Q: (error or '', results).
	my $api = sub {
		my ($q) = @_;
		my $r = $http->post_form("http://127.0.0.1:$pp/api/v1/query", { query => $q });
		my $j = eval { decode_json($r->{content}) } // {};
		return (($j->{status} // '') eq 'success' ? '' : ($j->{error} // "HTTP $r->{status}"),
			$j->{data}{result} // []);
	};
	my $periods = sub { my (undef, $r) = $api->("${NS}_periods"); @$r ? $r->[0]{value}[1] : -1 };
	ok(wait_for('fleet', 40, sub { $periods->() == 40 }), 'Prometheus scraped the first export') or
		diag(slurp("$dir/fleet-ne.log") . slurp("$dir/fleet-prom.log"));
	sleep(3);
	(my $h7 = $header) =~ s/^# dropped 0$/# dropped 7/m;
	put($fstat, $h7 . rows(0, 40) . rows(40, 75));
	my $more = join('', map { sprintf("0x%016x %d %d %d 77 1\n", 0x10000 + $_, ($_ + 1) % 4, $_ % 4, ($_ + 1) % 4) }
			0 .. 99);
	put($ftrace, ($head =~ s/^# dropped 2$/# dropped 6/mr) . $body . $more);
	ok($export->(), 'the exporter writes 35 more periods, 7 dropped, 100 more moves, 4 more lost');
	ok(wait_for('fleet', 30, sub { $periods->() == 75 }), 'Prometheus scraped the second export');
	sleep(3);

	# The dashboard's queries, its variables as Grafana sets them.
	for my $q (@q) {
		my ($title, $e) = @$q;
		(my $x = $e) =~ s/\$__rate_interval/30s/g;
		$x =~ s/\$instance/.*/g;
		my ($error, $res) = $api->($x);
		my @v = map { $_->{value}[1] } @$res;
		ok($error eq '' && @v && !grep({ !/^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i } @v),
		   "dashboard, $title: '$e' returns " . scalar(@v) . " series of numbers") or diag("$error: @v");
	}
	my $value = sub { my (undef, $r) = $api->($_[0]); @$r ? $r->[0]{value}[1] : 'none' };
	my %cls;
	for (split /\n/, slurp($fprom)) {
		$cls{$1} = $2 if /^${NS}_topology_migrations_total\{class="(\w+)"\} (\d+)$/;
	}
	my ($share_q) = map { $_->[1] } grep { $_->[1] =~ /cross_llc/ && $_->[1] =~ m@\) / sum@ } @q;
	my $share = $value->(($share_q // 'none') =~ s/\$__rate_interval/30s/gr =~ s/\$instance/.*/gr);
	# Of the 100 new moves, CPU 1 to 2 stays in the LLC, 2 to 3 and 3 to 0
	# cross nodes, 0 to 1 stays in the core: half leave their LLC.
	ok($share ne 'none' && abs($share - 0.5) < 1e-6, "the cross-LLC share of the last 30 s: $share, the new moves' 0.5");
	my ($lost_q) = map { $_->[1] } grep { $_->[1] =~ /trace_lost_total/ } @q;
	my $lost = $value->(($lost_q // 'none') =~ s/\$__rate_interval/30s/gr =~ s/\$instance/.*/gr);
	ok($lost ne 'none' && $lost >= 4, "the trace's losses show: $lost in the last 30 s (4 lost)");
	is($value->("${NS}_collecting"), 1, 'collecting is 1');

	# The rules: every one evaluated without error; the loss alerts fire.
	my $rules_ok = wait_for('rules', 20, sub {
		my $j = eval { decode_json($http->get("http://127.0.0.1:$pp/api/v1/rules")->{content}) } // {};
		my @r = map { @{$_->{rules}} } @{$j->{data}{groups} // []};
		my @bad = grep { $_->{health} ne 'ok' } @r;
		@r == 2 + @alerts && !@bad ? \@r : undef });
	ok($rules_ok, 'Prometheus evaluates every rule of the file without error');
	my $alerts_now = sub {
		my $j = eval { decode_json($http->get("http://127.0.0.1:$pp/api/v1/alerts")->{content}) } // {};
		return { map { $_->{labels}{alertname} => $_->{state} } @{$j->{data}{alerts} // []} };
	};
	my $firing = wait_for('alerts', 20, sub {
		my $a = $alerts_now->();
		($a->{MigrateTraceLiteStatDropped} // '') eq 'firing' &&
			($a->{MigrateTraceLiteTraceLost} // '') eq 'firing' ? $a : undef });
	ok($firing, 'the loss alerts fire: ' . join(', ', map { "$_ $firing->{$_}" } sort keys %{$firing // {}}));
	ok($firing && !grep({ $firing->{$_} } qw(MigrateTraceLiteNotCollecting MigrateTraceLiteStatStalled
						MigrateTraceLiteExporterStale)),
	   'a stat that collects and grows, an exporter that writes: no other alert');
	my (undef, $mt) = $api->(qq{node_textfile_mtime_seconds{file=~".*migrate_trace_lite[.]prom"}});
	is(scalar(@$mt), 1, 'the staleness alert\'s selector finds node_exporter\'s mtime of the file');

	put($fenable, "0\n");
	ok($export->(), 'the exporter writes enable 0');
	my $pending = wait_for('alerts', 20, sub {
		my $a = $alerts_now->();
		($a->{MigrateTraceLiteNotCollecting} // '') eq 'pending' ? $a : undef });
	ok($pending, 'a stat that stopped collecting: its alert is pending (it fires after 10 minutes)');
	stop_all();
	alarm(0);
}
done_testing();
