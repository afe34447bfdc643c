#!/usr/bin/perl
# scripts/migrate_plot: valid, non-empty PNG and SVG files from a stat
# series and a heatmap from a trace; the documented "pgraph" workflow run
# as written with migrate_plot in its place; bad input refused.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

use Cwd qw(abs_path);
use File::Basename qw(dirname);
my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $s = "$top/scripts";
my $dir = tempdir(CLEANUP => 1);

# harness/deps.sh installs gnuplot-nox: without it this fails, unless
# MT_ALLOW_SKIP says a missing part is on purpose.
if (!`command -v gnuplot 2>/dev/null`) {
	plan skip_all => 'gnuplot is not installed' if $ENV{MT_ALLOW_SKIP};
	plan tests => 1;
	fail('gnuplot is installed (harness/deps.sh installs gnuplot-nox)');
	exit 0;
}

# Width and height of a PNG, or nothing if FILE is not a whole PNG.
sub png_size {
	my ($file) = @_;
	open(my $fh, '<:raw', $file) or return;
	local $/;
	my $d = <$fh>;
	return unless length($d) > 33 && substr($d, 0, 8) eq "\x89PNG\r\n\x1a\n" &&
		      substr($d, 12, 4) eq 'IHDR' && substr($d, -8, 4) eq 'IEND';
	return unpack('NN', substr($d, 16, 8));
}

my $stat = "$dir/stat";
open(my $fh, '>', $stat) or die;
print $fh "# version 1.1.0\n# period_msec 500\n# gettimeofday 1700000000 0\n# ts_field 1\n" .
	"# field 2 try_to_wake_up\n# field 3 detach_tasks\n# field 4 migrate\n";
printf $fh "%d.%03d %d %d %d\n", $_ / 2, ($_ % 2) * 500, $_ % 7, 3, $_ % 7 + 3 for 0 .. 39;
close($fh);

# The documented workflow, verbatim but for graph= and the paths.
my $script = <<"EOS";
set -e
cd $dir
graph=$s/migrate_plot
stat=$stat
max_field=`$s/migrate_extract --max_field \${stat}`
min_field=`$s/migrate_extract --min_field \${stat}`
for field in `seq \${min_field} \${max_field}`; do
   title=`$s/migrate_extract --field_name \${field} \${stat}`
   $s/migrate_extract --extract \${field} \${stat} | \${graph} -TT "\${title}"
done
EOS
open(my $sh, '>', "$dir/graph.sh") or die;
print $sh $script;
close($sh);
my $out = `bash $dir/graph.sh 2>&1`;
is($?, 0, 'the documented graphing loop runs with migrate_plot as the graph program') or diag($out);
for my $name (qw(try_to_wake_up detach_tasks migrate)) {
	my ($w, $h) = png_size("$dir/$name.png");
	ok($w && $w >= 400 && $h >= 200, "$name.png is a valid PNG (${\($w // 0)}x${\($h // 0)})");
}

# The trace workflow: migrate_stats --period_* output, graphed the same way.
my $tr = "$dir/wf.trace";
open(my $t, '>', $tr) or die;
print $t "# version 1.1.0\n# nr_cpus 2\n# cause 1 try_to_wake_up\n# loc 2 mark\n";
printf $t "0x%016x %d %d %d 7 1\n", 1e9 + $_ * 1e8, $_ % 2, $_ % 2, 1 - $_ % 2 for 0 .. 50;
close($t);
(my $wf = $script) =~ s@^stat=.*$@trace=$tr\nstat=$dir/wf.stat\n$s/migrate_stats --period 1000 --period_all --period_cause --period_cpu --period_cpu_pair \${trace} > \${stat}@m;
$wf =~ s@cd $dir@mkdir -p $dir/wf \&\& cd $dir/wf@;
open($sh, '>', "$dir/wf.sh") or die;
print $sh $wf;
close($sh);
$out = `bash $dir/wf.sh 2>&1`;
is($?, 0, 'the documented trace graphing workflow runs') or diag($out);
my @png = glob("$dir/wf/*.png");
is(scalar(@png), 1 + 1 + 4 + 4, 'one graph per field: cause, migrate, 4 from/to cpu, 4 pairs (N = M included)');
is(scalar(grep { png_size($_) } @png), scalar(@png), 'all of them valid PNGs');

$out = `$s/migrate_extract --extract 4 --ts_gmt --ts_date $stat | $s/migrate_plot -TT total -o $dir/total.svg`;
is($out, "$dir/total.svg\n", 'prints the file it wrote');
my $svg = do { local (@ARGV, $/) = ("$dir/total.svg"); <> } // '';
like($svg, qr/<svg.*<\/svg>\s*\z/s, 'wall-clock series to a whole SVG');
like($svg, qr/>total</, 'the SVG carries the title');

# Two values or more are joined by a line, a single one is a point.
for my $c ([2, 'a line', 1, 0], [1, 'a point', 0, 1]) {
	my ($n, $what, $line, $point) = @$c;
	system("printf '" . join('', map { sprintf('%d.000 %d.00\\n', $_, $_ + 1) } 1 .. $n) .
	       "' | $s/migrate_plot -o $dir/n$n.svg >/dev/null");
	my $svg = do { local (@ARGV, $/) = ("$dir/n$n.svg"); <> } // '';
	is((() = $svg =~ /<path stroke='rgb\(148,\s*0,\s*211\)'\s+d='M[\d.]+,[\d.]+ L/g) . ' ' .
	   (() = $svg =~ /<use xlink:href='#gpPt\d+' transform='translate/g), "$line $point",
	   "a series of $n: $what");
}

my $trace = "$dir/trace";
open($fh, '>', $trace) or die;
print $fh "# version 1.1.0\n# nr_cpus 2\n# cause 1 try_to_wake_up\n";
printf $fh "0x%016x 1 0 1 5 1\n0x%016x 0 1 0 5 1\n", 2 * $_, 2 * $_ + 1 for 1 .. 10;
close($fh);
system("$s/migrate_plot --heatmap -o $dir/heat.png $trace >/dev/null");
my ($w) = png_size("$dir/heat.png");
ok($w, '--heatmap of a trace is a valid PNG');

# A heatmap of 8 CPUs, 3 of which move tasks (0->2 twice, 2->5, 5->0):
# a row and a column for each of the three, named by its CPU, and each
# cell's count.
open($fh, '>', "$dir/sparse") or die;
print $fh "# version 1.2.0\n# nr_cpus 8\n# cause 1 a\n";
my @moves = ([0, 2], [2, 5], [5, 0], [0, 2]);
printf $fh "0x%016x %d %d %d 5 1\n", $_ + 1, $moves[$_][1], @{$moves[$_]} for 0 .. $#moves;
close($fh);
system("$s/migrate_plot --heatmap -o $dir/sparse.svg $dir/sparse >/dev/null");
my @text = (do { local (@ARGV, $/) = ("$dir/sparse.svg"); <> } // '') =~ m@>([^<>]*)</text>@g;
is(join(' ', @text[0 .. 5]), '0 2 5 0 2 5', '--heatmap: the tics name the CPUs that moved tasks, on both axes');
my %n;
$n{"@$_"}++ for @moves;
my ($at) = grep { $text[$_] eq 'to CPU' } 0 .. $#text;
is(join(' ', @text[$at + 1 .. $at + 9]), join(' ', map { my $f = $_; map { $n{"$f $_"} // 0 } 0, 2, 5 } 0, 2, 5),
   '--heatmap: each cell is labelled with its count, row by row');

for my $b (['bad series line', "echo 'zero one' | $s/migrate_plot -o $dir/x.png", qr/want 'TIMESTAMP VALUE'/],
	   ['no data', "printf '' | $s/migrate_plot -o $dir/x.png", qr/no data/],
	   ['bad format', "echo '0.000 1.00' | $s/migrate_plot --format gif", qr/png or svg/],
	   ['heatmap of garbage', "echo garbage | $s/migrate_plot --heatmap -o $dir/x.png", qr/^migrate_plot: -:1: no '# version' line before the first event$/],
	   ['heatmap of no migration', "printf '# version 1.2.0\\n# nr_cpus 2\\n' | $s/migrate_plot --heatmap -o $dir/x.png",
	    qr/^migrate_plot: -: no migration to draw$/]) {
	my $err = `$b->[1] 2>&1 >/dev/null`;
	ok($? >> 8 == 2 && $err =~ $b->[2] && ($err =~ tr/\n//) == 1, "refused with one line: $b->[0]")
		or diag($err);
}

# ---- file names are names, never shell text ---------------------------------------
# A trace and an output whose names hold an apostrophe, a semicolon and a
# command: drawn, and nothing run.  Run through a list-form system(), so
# that only migrate_plot could give the names to a shell.
my $mv = "# version 1.2.0\n# nr_cpus 2\n# cause 1 a\n0x0000000000000001 0 0 1 7 1\n";
# The commands touch 'pwned' in the current directory, which is $dir.
my $pwned = "$dir/pwned";
my $odd = "$dir/t.trace';touch pwned;'";
open($fh, '>', $odd) or die;
print $fh $mv;
close($fh);
for my $mode (['--heatmap'], ['--timeline']) {
	my $png = "$dir/it's;\$(touch pwned).png";
	unlink($png);
	my $pid = open(my $kid, '-|') // die;
	unless ($pid) {
		open(STDERR, '>&', \*STDOUT);
		chdir($dir) or exit(127);
		exec("$s/migrate_plot", @$mode, '-o', $png, $odd) or exit(127);
	}
	my $said = join('', <$kid>);
	close($kid);
	ok($? == 0 && $said eq "$png\n" && png_size($png), "$mode->[0]: names with ' ; \$( ): drawn") or diag($said);
	ok(!-e $pwned, "$mode->[0]: no command of the names ran");
}
# A missing file: the reason, not an empty one.
my $err = `$s/migrate_plot --heatmap -o $dir/x.png "$dir/no'such" 2>&1 >/dev/null`;
is("$? $err", (2 << 8) . " migrate_plot: $dir/no'such: No such file or directory\n",
   'a missing file whose name has an apostrophe: its reason');
done_testing();
